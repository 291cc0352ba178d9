// Trains a `TextTagModel` from works fed one at a time. A work's terms are kept as ids into a table of the
// distinct terms seen (4 bytes a term, not a string each), the vocabulary is cut once every work is in,
// then each work's TF-IDF vector is made once and added, weighted by the label's score, into the centroid
// of every label it carries — one label at a time over a dense scratch row, so no per-label map is needed.
//
// Deterministic: labels are numbered by id (code-unit order), works are added in the order given (ingest
// reads them by id), ties in a centroid's term cut go to the lower term id. The same works in the same
// order give a byte-identical model.
import { TAG_KINDS, type TagKind } from '@oqlkit/engine'
import { TermVocabularyBuilder, type TermVocabularyOptions } from './term-vocabulary-builder.ts'
import {
  DEFAULT_TAG_MODEL_SETTINGS,
  type TagLabelSet,
  type TagModelSettings,
  TextTagModel,
} from './text-tag-model.ts'
import { textTerms } from './text-terms.ts'
import type { TrainingWork } from './training-work.ts'

interface LabelTable {
  readonly index: Map<string, number>
  readonly names: string[]
  /** Per work, in order: label indexes and scores, flat, with `workOffsets`. */
  readonly workLabels: number[]
  readonly workScores: number[]
  readonly workOffsets: number[]
}

export class TextTagModelTrainer {
  readonly #vocabulary = new TermVocabularyBuilder()
  readonly #termIndex = new Map<string, number>()
  readonly #terms: string[] = []
  #workTerms = new Uint32Array(1 << 20)
  #termCount = 0
  readonly #workOffsets: number[] = [0]
  readonly #labels = new Map<TagKind, LabelTable>(
    TAG_KINDS.map((kind) => [
      kind,
      { index: new Map(), names: [], workLabels: [], workScores: [], workOffsets: [0] },
    ]),
  )

  get workCount(): number {
    return this.#workOffsets.length - 1
  }

  addWork(work: TrainingWork): void {
    const terms = textTerms(`${work.title}\n${work.abstract}`)
    this.#vocabulary.addDocument(terms)
    if (this.#termCount + terms.length > this.#workTerms.length) {
      const grown = new Uint32Array(Math.max(this.#workTerms.length * 2, this.#termCount + terms.length))
      grown.set(this.#workTerms.subarray(0, this.#termCount))
      this.#workTerms = grown
    }
    for (const term of terms) {
      let id = this.#termIndex.get(term)
      if (id === undefined) {
        id = this.#terms.length
        this.#termIndex.set(term, id)
        this.#terms.push(term)
      }
      this.#workTerms[this.#termCount++] = id
    }
    this.#workOffsets.push(this.#termCount)
    for (const kind of TAG_KINDS) {
      const table = this.#labels.get(kind)!
      const seen = new Set<string>()
      for (const label of work.labels[kind]) {
        if (seen.has(label.id)) continue
        seen.add(label.id)
        let index = table.index.get(label.id)
        if (index === undefined) {
          index = table.names.length
          table.index.set(label.id, index)
          table.names.push(label.display_name)
        }
        table.workLabels.push(index)
        table.workScores.push(label.score)
      }
      table.workOffsets.push(table.workLabels.length)
    }
  }

  build(
    options: { vocabulary?: Partial<TermVocabularyOptions>; settings?: Partial<TagModelSettings> } = {},
  ): TextTagModel {
    const settings = { ...DEFAULT_TAG_MODEL_SETTINGS, ...options.settings }
    const vectorizer = this.#vocabulary.build(options.vocabulary)
    // Every work's vector, once, in compressed-row form.
    const vectorOffsets = new Uint32Array(this.workCount + 1)
    const vectorTerms: number[] = []
    const vectorWeights: number[] = []
    for (let work = 0; work < this.workCount; work++) {
      const terms: string[] = []
      for (let k = this.#workOffsets[work]!; k < this.#workOffsets[work + 1]!; k++)
        terms.push(this.#terms[this.#workTerms[k]!]!)
      const vector = vectorizer.vectorizeTerms(terms)
      for (let k = 0; k < vector.termIds.length; k++) {
        vectorTerms.push(vector.termIds[k]!)
        vectorWeights.push(vector.weights[k]!)
      }
      vectorOffsets[work + 1] = vectorTerms.length
    }
    const labels: Partial<Record<TagKind, TagLabelSet>> = {}
    for (const kind of TAG_KINDS) {
      const table = this.#labels.get(kind)!
      if (table.names.length === 0) continue
      labels[kind] = centroidsOf(table, vectorOffsets, vectorTerms, vectorWeights, vectorizer.size, settings)
    }
    return new TextTagModel(vectorizer, labels, settings, this.workCount)
  }
}

function centroidsOf(
  table: LabelTable,
  vectorOffsets: Uint32Array,
  vectorTerms: readonly number[],
  vectorWeights: readonly number[],
  vocabularySize: number,
  settings: TagModelSettings,
): TagLabelSet {
  const ids = [...table.index.keys()]
  // Labels in id order (first-seen order depends on the works' order; id order does not).
  const byId = ids
    .map((id, first) => ({ id, first }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const indexOf = new Uint32Array(ids.length)
  byId.forEach(({ first }, sorted) => {
    indexOf[first] = sorted
  })
  // The works of each label (inverting work → labels).
  const workCounts = new Uint32Array(ids.length)
  for (const first of table.workLabels) workCounts[indexOf[first]!]!++
  const starts = new Uint32Array(ids.length + 1)
  for (let label = 0; label < ids.length; label++) starts[label + 1] = starts[label]! + workCounts[label]!
  const fill = starts.slice(0, ids.length)
  const labelWorks = new Uint32Array(table.workLabels.length)
  const labelScores = new Float32Array(table.workLabels.length)
  for (let work = 0; work + 1 < table.workOffsets.length; work++) {
    for (let k = table.workOffsets[work]!; k < table.workOffsets[work + 1]!; k++) {
      const slot = fill[indexOf[table.workLabels[k]!]!]!++
      labelWorks[slot] = work
      labelScores[slot] = table.workScores[k]!
    }
  }
  const scratch = new Float64Array(vocabularySize)
  const isTouched = new Uint8Array(vocabularySize)
  const touched: number[] = []
  const offsets = new Uint32Array(ids.length + 1)
  const termIds: number[] = []
  const weights: number[] = []
  for (let label = 0; label < ids.length; label++) {
    for (let k = starts[label]!; k < starts[label + 1]!; k++) {
      const work = labelWorks[k]!
      const score = labelScores[k]!
      for (let v = vectorOffsets[work]!; v < vectorOffsets[work + 1]!; v++) {
        const term = vectorTerms[v]!
        if (isTouched[term] === 0) {
          isTouched[term] = 1
          touched.push(term)
        }
        scratch[term]! += score * vectorWeights[v]!
      }
    }
    touched.sort((a, b) => scratch[b]! - scratch[a]! || a - b)
    const kept = touched.slice(0, settings.centroidTerms).sort((a, b) => a - b)
    let squares = 0
    for (const term of kept) squares += scratch[term]! * scratch[term]!
    const norm = Math.sqrt(squares)
    if (norm > 0)
      for (const term of kept) {
        termIds.push(term)
        weights.push(scratch[term]! / norm)
      }
    for (const term of touched) {
      scratch[term] = 0
      isTouched[term] = 0
    }
    touched.length = 0
    offsets[label + 1] = termIds.length
  }
  return {
    ids: byId.map(({ id }) => id),
    names: byId.map(({ first }) => table.names[first]!),
    workCounts,
    centroidOffsets: offsets,
    centroidTermIds: Uint32Array.from(termIds),
    centroidWeights: Float32Array.from(weights),
  }
}
