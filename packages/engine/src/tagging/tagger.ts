// Tagging free text with the catalog's own labels (`/text`): the interface the HTTP layer calls and a model
// implements (adapter-duckdb trains one from a catalog's works at ingest). Pure types and limits only.

/** The label lists a tagger gives. Topics only for the deprecated `/text/topics`. */
export const TAG_KINDS = Object.freeze(['keywords', 'concepts', 'topics'] as const)
export type TagKind = (typeof TAG_KINDS)[number]

/** One label a text is tagged with; `score` in [0, 1], higher is more confident. */
export interface Tag {
  readonly id: string
  readonly display_name: string
  readonly score: number
}

export interface TaggingInput {
  readonly title: string
  readonly abstract?: string
}

/** The text-tagging limits of the API description: title plus abstract, in characters. */
export const TEXT_TAGGING_LIMITS = Object.freeze({ minCharacters: 20, maxCharacters: 2000 })

/** The length the limits apply to: title and abstract together. */
export const taggingInputLength = (input: TaggingInput): number =>
  input.title.length + (input.abstract?.length ?? 0)

export interface Tagger {
  /** The kinds this tagger was trained for (a catalog without topics has no topic model). */
  readonly kinds: readonly TagKind[]
  /**
   * The labels of one kind for a text, highest score first, only those above the model's threshold (so text
   * unrelated to the catalog gets few or none). A kind not in `kinds` gives an empty list.
   */
  tag(input: TaggingInput, kind: TagKind): Promise<readonly Tag[]>
}
