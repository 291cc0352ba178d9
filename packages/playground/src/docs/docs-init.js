// Starts Swagger UI on this server's OpenAPI document. Paths are relative to /docs, so the page works
// behind a proxy's path prefix too. validatorUrl null: Swagger UI would otherwise send the document to
// validator.swagger.io for a badge, and the page must need no network beyond this server.
window.ui = SwaggerUIBundle({
  url: new URL('openapi.json', document.baseURI).href,
  dom_id: '#swagger-ui',
  validatorUrl: null,
  deepLinking: true,
  tryItOutEnabled: true,
})
