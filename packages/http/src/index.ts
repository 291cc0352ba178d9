// The public API of @oqlkit/http: the app factory. The server is composed by `@oqlkit/cli`.
export { type AppOptions, type CatalogInfo, createApp } from './create-app.ts'
