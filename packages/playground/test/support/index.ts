// @oqlkit/playground's test fixtures, for the scripts of the repository (`@oqlkit/playground/test-support`, an
// export of the source condition only: it is never published): the Chromium the browser tests drive.
export { chromiumForTests, launchChromium } from './chromium-browser.ts'
