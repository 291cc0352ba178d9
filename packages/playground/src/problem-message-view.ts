// A problem's message as the page shows it. The library and the server write for API users ("GET
// /properties/works lists the columns."); in the page, that sentence becomes a link that opens the OQL
// reference at the entity's fields, which a researcher can read.
const API_POINTER = /GET \/properties\/([a-z-]+) lists the (?:columns|filters|fields)\.?/g

/**
 * Writes `message` into `element`, each pointer at the properties API made a link to the entity's fields;
 * `entityOfPath` gives the entity the reference knows for the path's (a pointer it knows none for stays text).
 */
export const writeProblemMessage = (
  element: HTMLElement,
  message: string,
  entityOfPath: (path: string) => string | undefined,
  showFields: (entity: string) => void,
): void => {
  const parts: (string | Node)[] = []
  let at = 0
  for (const match of message.matchAll(API_POINTER)) {
    const entity = entityOfPath(match[1]!)
    if (entity === undefined) continue
    parts.push(message.slice(at, match.index))
    const link = document.createElement('a')
    link.href = '#oql-reference'
    link.className = 'fields-link'
    link.textContent = `See the fields of ${entity}.`
    link.addEventListener('click', (event) => {
      event.preventDefault()
      showFields(entity)
    })
    parts.push(link)
    at = match.index + match[0].length
  }
  parts.push(message.slice(at))
  element.replaceChildren(...parts.filter((part) => part !== ''))
}
