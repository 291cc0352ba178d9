// The example gallery: a button per question (example-queries.ts), one click to put its query in the editor
// and run it.
import { EXAMPLE_QUERIES } from './example-queries.ts'

/** The gallery's list: a button per question that puts its query in the editor and runs it. */
export const renderExampleGallery = (list: HTMLElement, onPick: (oql: string) => void): void => {
  list.replaceChildren(
    ...EXAMPLE_QUERIES.map(({ question, oql }) => {
      const item = document.createElement('li')
      const button = document.createElement('button')
      button.type = 'button'
      button.className = 'example'
      const label = document.createElement('span')
      label.className = 'example-question'
      label.textContent = question
      const code = document.createElement('code')
      code.textContent = oql
      button.append(label, code)
      button.addEventListener('click', () => onPick(oql))
      item.append(button)
      return item
    }),
  )
}
