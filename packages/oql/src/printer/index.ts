// The OQL printer: canonical OQO → canonical OQL text (wrapped or one line) and the editor's token tree.
export { clauseAddressOf } from './clause-address.ts'
export type { NameLookup } from './clause-tree.ts'
export {
  DEFAULT_WIDTH,
  type PrintedOql,
  type PrintOqlOptions,
  printOql,
  printOqlForms,
  printOqlOneline,
  renderOqlTree,
} from './oql-printer.ts'
export {
  type OqlRenderLine,
  type OqlRenderTree,
  type OqlToken,
  type OqlTokenRole,
  renderTreeText,
} from './oql-tokens.ts'
