// The query's three forms beside the editor: the canonical OQL, the OQO (pretty JSON, editable) and the
// classic URL (editable, or why there is none). All come from `translate()` in the page, no server round
// trip. The editor leads the forms; an edited OQO or URL leads the editor and the other form. An invalid
// form shows its error beside it and changes nothing else; an invalid editor empties the other forms.
import { type TranslationResult, translate } from '@oqlkit/oql'

export interface QueryFormsElements {
  readonly canonical: HTMLElement
  readonly canonicalNote: HTMLElement
  readonly oqo: HTMLTextAreaElement
  readonly oqoError: HTMLElement
  readonly url: HTMLTextAreaElement | HTMLInputElement
  readonly urlNote: HTMLElement
}

export interface QueryFormsOptions {
  /** Where classic URLs point: this server's API root (translate writes them for the public API). */
  readonly apiRoot: URL
  /** Puts a form's canonical OQL into the editor. */
  readonly setEditorText: (text: string) => void
  /** How long typing pauses before a form is read again. */
  readonly debounceMs?: number
  /** Writes a problem's message (the page links its pointers at the API); plain text without. */
  readonly writeProblem?: (element: HTMLElement, message: string) => void
}

export interface QueryForms {
  /** The editor's text changed (typed, or set from a form): the forms follow, after a pause. */
  editorChanged(text: string): void
  /** The forms from the editor's text now, without waiting (the first paint). */
  showNow(text: string): void
}

const messagesOf = (result: TranslationResult): string =>
  result.validation.errors.map((error) => error.message).join(' ')

/** Translate's public-API URL, pointed at this server instead: the same path and query. */
export const localClassicUrl = (oxurl: string, apiRoot: URL): string => {
  const parsed = new URL(oxurl, apiRoot)
  return new URL(`${parsed.pathname.replace(/^\/+/, '')}${parsed.search}`, apiRoot).href
}

const debounce = (ms: number, action: () => void): (() => void) => {
  let timer: ReturnType<typeof setTimeout> | undefined
  return () => {
    clearTimeout(timer)
    timer = setTimeout(action, ms)
  }
}

const setNote = (element: HTMLElement, text: string, isError: boolean): void => {
  element.textContent = text
  element.classList.toggle('error', isError)
}

export const createQueryForms = (elements: QueryFormsElements, options: QueryFormsOptions): QueryForms => {
  const debounceMs = options.debounceMs ?? 250
  // The text this view last put into the editor: its echo through onChange must not rewrite the form
  // the person is typing in.
  let pushed: string | undefined
  let latestEditorText = ''

  const setProblem = (element: HTMLElement, message: string): void => {
    if (options.writeProblem === undefined) setNote(element, message, true)
    else {
      options.writeProblem(element, message)
      element.classList.add('error')
    }
  }

  const markInvalid = (field: HTMLElement, invalid: boolean): void => {
    if (invalid) field.setAttribute('aria-invalid', 'true')
    else field.removeAttribute('aria-invalid')
  }

  /** Writes the forms from a valid translation, except the one it was read from. */
  const show = (result: TranslationResult, from: 'editor' | 'oqo' | 'url'): void => {
    elements.canonical.textContent = result.oql ?? ''
    setNote(elements.canonicalNote, '', false)
    if (from !== 'oqo') {
      elements.oqo.value = JSON.stringify(result.oqo, null, 2)
      setNote(elements.oqoError, '', false)
      markInvalid(elements.oqo, false)
    }
    if (from !== 'url') {
      markInvalid(elements.url, false)
      if (result.oxurl === null) {
        elements.url.value = ''
        const why = result.validation.warnings.map((warning) => warning.message).join(' ')
        setNote(elements.urlNote, why === '' ? 'This query has no classic URL.' : why, false)
      } else {
        elements.url.value = localClassicUrl(result.oxurl, options.apiRoot)
        setNote(elements.urlNote, '', false)
      }
    }
  }

  /**
   * The editor holds no query the other forms can show (empty, or not valid): they show nothing rather than
   * an earlier query, and no error of an earlier edit; the canonical form's note says why.
   */
  const showNone = (why: string, isError: boolean): void => {
    elements.canonical.textContent = ''
    if (isError) setProblem(elements.canonicalNote, why)
    else setNote(elements.canonicalNote, why, false)
    for (const [field, note] of [
      [elements.oqo, elements.oqoError],
      [elements.url, elements.urlNote],
    ] as const) {
      field.value = ''
      markInvalid(field, false)
      setNote(note, isError ? 'None while the query in the editor is not valid.' : '', false)
    }
  }

  const fromEditor = (): void => {
    const text = latestEditorText
    if (text.trim() === '') {
      showNone('Type a query in the editor.', false)
      return
    }
    const result = translate({ oql: text })
    if (!result.validation.valid) {
      showNone(messagesOf(result), true)
      return
    }
    show(result, 'editor')
  }
  const fromEditorSoon = debounce(debounceMs, fromEditor)

  const fromForm = (form: 'oqo' | 'url'): void => {
    const field = form === 'oqo' ? elements.oqo : elements.url
    const note = form === 'oqo' ? elements.oqoError : elements.urlNote
    const result = form === 'oqo' ? translate({ oqo: field.value }) : translate({ oxurl: field.value })
    if (!result.validation.valid || result.oql === null) {
      markInvalid(field, true)
      setProblem(note, messagesOf(result))
      return
    }
    markInvalid(field, false)
    setNote(note, '', false)
    show(result, form)
    pushed = result.oql
    options.setEditorText(result.oql)
  }
  const oqoSoon = debounce(debounceMs, () => fromForm('oqo'))
  const urlSoon = debounce(debounceMs, () => fromForm('url'))
  elements.oqo.addEventListener('input', oqoSoon)
  elements.url.addEventListener('input', urlSoon)

  return {
    editorChanged: (text) => {
      latestEditorText = text
      if (text === pushed) return
      pushed = undefined
      fromEditorSoon()
    },
    showNow: (text) => {
      latestEditorText = text
      fromEditor()
    },
  }
}
