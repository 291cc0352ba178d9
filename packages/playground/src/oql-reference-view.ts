// The OQL reference panel: an entity chooser, the grammar in brief, and the chosen entity's fields with their
// kinds, operators and values (oql-field-reference.ts).
import { fieldReference, referenceEntities } from './oql-field-reference.ts'

/** Values shown for a closed list: more would push the other fields out of view. */
const MAX_VALUES = 12

const cell = (tag: 'td' | 'th', text: string): HTMLTableCellElement => {
  const element = document.createElement(tag)
  element.textContent = text
  return element
}

export interface OqlReferenceView {
  /** Shows the fields of `entity` and opens the panel (an error's "see the fields" link). */
  show(entity: string): void
}

/** The panel in `container`: an entity chooser, the grammar in brief and the chosen entity's fields. */
export const renderOqlReference = (container: HTMLDetailsElement): OqlReferenceView => {
  const chooser = document.createElement('select')
  chooser.id = 'reference-entity'
  const label = document.createElement('label')
  label.htmlFor = chooser.id
  label.textContent = 'Fields of '
  for (const entity of referenceEntities()) chooser.append(new Option(entity, entity))
  const grammar = document.createElement('p')
  grammar.className = 'note'
  grammar.textContent =
    'A query: an entity, then where and conditions (field operator value), joined with and, or, not and parentheses; then group by fields, or sample N. Values in parentheses: (2020), (article), (I241749); words to search in quotes for exact matches.'
  const table = document.createElement('table')
  table.className = 'reference-table'
  const fill = (): void => {
    const head = document.createElement('tr')
    head.append(cell('th', 'field'), cell('th', 'holds'), cell('th', 'operators'), cell('th', 'values'))
    const rows = fieldReference(chooser.value).map((field) => {
      const row = document.createElement('tr')
      const shown = field.values.slice(0, MAX_VALUES)
      row.append(
        cell('td', field.name),
        cell('td', field.kind),
        cell('td', field.operators.join(', ')),
        cell('td', `${shown.join(', ')}${field.values.length > shown.length ? ', …' : ''}`),
      )
      return row
    })
    table.replaceChildren(head, ...rows)
  }
  chooser.addEventListener('change', fill)
  container.append(grammar, label, chooser, table)
  container.addEventListener('toggle', () => {
    if (container.open && table.rows.length === 0) fill()
  })
  return {
    show: (entity) => {
      if ([...chooser.options].some((option) => option.value === entity)) chooser.value = entity
      fill()
      container.open = true
      container.scrollIntoView({ block: 'start' })
    },
  }
}
