// The playground page: wires the OQL editor, the run button and the results view together.
import { createOqlEditor } from './oql-editor.ts'
import { runQuery } from './query-runner.ts'

const element = <T extends HTMLElement>(id: string): T => {
  const found = document.getElementById(id)
  if (found === null) throw new Error(`The playground page has no #${id}`)
  return found as T
}

const summary = element<HTMLParagraphElement>('run-summary')
const results = element<HTMLDivElement>('results')

const run = async (): Promise<void> => {
  summary.textContent = 'Running…'
  const outcome = await runQuery(editor.text())
  summary.textContent = outcome.summary
  summary.classList.toggle('error', !outcome.ok)
  results.textContent = outcome.ok
    ? JSON.stringify(outcome.body.results ?? outcome.body.group_by ?? []).slice(0, 2000)
    : ''
}

const editor = createOqlEditor(element('oql-editor'), {
  text: new URLSearchParams(location.search).get('q') ?? 'works where year is 2020',
  onRun: () => void run(),
})
element<HTMLButtonElement>('run-query').addEventListener('click', () => void run())
