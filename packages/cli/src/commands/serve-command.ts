import type { CliCommand } from './cli-command.ts'

export const serveCommand: CliCommand = {
  name: 'serve',
  usage: 'oqlkit serve [--catalog DIR] [--port N]',
  summary: 'Serve the catalog over HTTP (arrives with the catalog storage and entity API issues).',
  async run() {
    return {
      exitCode: 0,
      stdout:
        'oqlkit: the HTTP server is not there yet. The query language (oqlkit translate, oqlkit validate) works;\n' +
        'the bundled sample catalog and the API routes come with the catalog storage and entity API issues.\n',
    }
  },
}
