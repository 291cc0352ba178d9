// The tag model: for each kind of label (keywords, concepts, topics), one TF-IDF centroid per label — the
// mean vector of the works that carry it, weighted by the label's score on each, cut to its strongest terms
// and L2-normalised — and the stemmed terms of the label's name. A text is scored against every label by
//   similarity = cosine(text vector, centroid)            (what works with this label read like)
//   name match = share of the name's terms in the text    (the label says so itself)
//   score      = 1 - (1 - min(1, scale · similarity)) · (1 - weight · name match²)
// a noisy-or of the two kinds of evidence, in [0, 1]. Only labels at or above the kind's threshold are
// returned, highest first, so text unlike anything in the catalog gets few or no tags.
import type { Tag, TagKind } from '@oqlkit/engine'
import type { SparseTermVector } from './sparse-term-vector.ts'
import { TermVectorizer } from './term-vectorizer.ts'
import { textTerms } from './text-terms.ts'

export interface TagModelSettings {
  /** Terms kept in each label's centroid (its strongest). */
  readonly centroidTerms: number
  /** Cosine similarities to a centroid are small; this scales them before the noisy-or. */
  readonly similarityScale: number
  /** How much a label's name found in the text counts (the name-match evidence's probability). */
  readonly nameMatchWeight: number
  /** The lowest score returned, per kind. */
  readonly thresholds: Readonly<Record<TagKind, number>>
  /** The most labels returned per kind. */
  readonly maxTags: number
}

export const DEFAULT_TAG_MODEL_SETTINGS: TagModelSettings = Object.freeze({
  centroidTerms: 64,
  similarityScale: 2,
  nameMatchWeight: 0.6,
  thresholds: Object.freeze({ keywords: 0.3, concepts: 0.3, topics: 0.3 }),
  maxTags: 25,
})

/** One kind's labels: parallel arrays by label index, centroids in compressed-row form. */
export interface TagLabelSet {
  readonly ids: readonly string[]
  readonly names: readonly string[]
  /** How many training works carry each label. */
  readonly workCounts: Uint32Array
  /** Label i's centroid is terms/weights[offsets[i] … offsets[i+1]). */
  readonly centroidOffsets: Uint32Array
  readonly centroidTermIds: Uint32Array
  readonly centroidWeights: Float32Array
}

export class TagModelFormatError extends Error {
  override readonly name = 'TagModelFormatError'
}

const MAGIC = 0x4d54514f // 'OQTM' as a little-endian u32
const FORMAT_VERSION = 1

interface ModelHeader {
  readonly settings: TagModelSettings
  readonly trainedWorks: number
  readonly kinds: Partial<
    Record<TagKind, { readonly labels: ReadonlyArray<[string, string]>; readonly terms: number }>
  >
}

interface LabelSimilarities {
  /** By label index; 0 for labels the text shares no term with. */
  readonly scores: Float64Array
  readonly touched: readonly number[]
}

/** The inverted form of a kind's centroids, built at load: term → labels, and name term → labels. */
class KindIndex {
  readonly postingOffsets: Uint32Array
  readonly postingLabels: Uint32Array
  readonly postingWeights: Float32Array
  readonly nameLabels = new Map<string, number[]>()
  readonly nameLengths: Uint16Array

  constructor(labels: TagLabelSet, vocabularySize: number) {
    const counts = new Uint32Array(vocabularySize + 1)
    for (const term of labels.centroidTermIds) counts[term + 1]!++
    for (let t = 0; t < vocabularySize; t++) counts[t + 1]! += counts[t]!
    this.postingOffsets = counts
    this.postingLabels = new Uint32Array(labels.centroidTermIds.length)
    this.postingWeights = new Float32Array(labels.centroidTermIds.length)
    const fill = counts.slice(0, vocabularySize)
    for (let label = 0; label < labels.ids.length; label++) {
      for (let k = labels.centroidOffsets[label]!; k < labels.centroidOffsets[label + 1]!; k++) {
        const slot = fill[labels.centroidTermIds[k]!]!++
        this.postingLabels[slot] = label
        this.postingWeights[slot] = labels.centroidWeights[k]!
      }
    }
    this.nameLengths = new Uint16Array(labels.ids.length)
    labels.names.forEach((name, label) => {
      const terms = new Set(textTerms(name))
      this.nameLengths[label] = Math.min(terms.size, 0xffff)
      for (const term of terms) {
        const list = this.nameLabels.get(term)
        if (list === undefined) this.nameLabels.set(term, [label])
        else list.push(label)
      }
    })
  }
}

export class TextTagModel {
  readonly vectorizer: TermVectorizer
  readonly settings: TagModelSettings
  readonly trainedWorks: number
  readonly #labels: Partial<Record<TagKind, TagLabelSet>>
  readonly #indexes = new Map<TagKind, KindIndex>()

  constructor(
    vectorizer: TermVectorizer,
    labels: Partial<Record<TagKind, TagLabelSet>>,
    settings: TagModelSettings,
    trainedWorks: number,
  ) {
    this.vectorizer = vectorizer
    this.#labels = labels
    this.settings = settings
    this.trainedWorks = trainedWorks
  }

  /** The kinds with at least one label. */
  get kinds(): TagKind[] {
    return (['keywords', 'concepts', 'topics'] as const).filter(
      (kind) => (this.#labels[kind]?.ids.length ?? 0) > 0,
    )
  }

  labelSet(kind: TagKind): TagLabelSet | undefined {
    return this.#labels[kind]
  }

  /** The tags of one kind for a text (title and abstract joined), thresholded and sorted. */
  tag(text: string, kind: TagKind, settings: Partial<TagModelSettings> = {}): Tag[] {
    const labels = this.#labels[kind]
    if (labels === undefined || labels.ids.length === 0) return []
    const { similarityScale, nameMatchWeight, thresholds, maxTags } = { ...this.settings, ...settings }
    const terms = textTerms(text)
    const vector = this.vectorizer.vectorizeTerms(terms)
    const index = this.#indexFor(kind, labels)
    const similarity = this.#similarities(vector, index)
    const matched = new Map<number, number>()
    for (const term of new Set(terms))
      for (const label of index.nameLabels.get(term) ?? []) matched.set(label, (matched.get(label) ?? 0) + 1)
    const candidates = new Set<number>(similarity.touched)
    for (const label of matched.keys()) candidates.add(label)
    const tags: Array<{ label: number; score: number }> = []
    const threshold = thresholds[kind]
    for (const label of candidates) {
      const share = (matched.get(label) ?? 0) / Math.max(1, index.nameLengths[label]!)
      const fromText = Math.min(1, similarityScale * similarity.scores[label]!)
      const score = 1 - (1 - fromText) * (1 - nameMatchWeight * share * share)
      if (score >= threshold) tags.push({ label, score })
    }
    // Ties by label index, which follows the ids' order: the same text always gives the same list.
    tags.sort((a, b) => b.score - a.score || a.label - b.label)
    return tags.slice(0, maxTags).map(({ label, score }) => ({
      id: labels.ids[label]!,
      display_name: labels.names[label]!,
      score: Math.round(score * 1e6) / 1e6,
    }))
  }

  #indexFor(kind: TagKind, labels: TagLabelSet): KindIndex {
    let index = this.#indexes.get(kind)
    if (index === undefined) {
      index = new KindIndex(labels, this.vectorizer.size)
      this.#indexes.set(kind, index)
    }
    return index
  }

  /**
   * The dot product of the text's vector with every centroid that shares a term with it. A typed array and
   * a list of the labels touched, not a Map: a text meets hundreds of thousands of postings at 100k works.
   */
  #similarities(vector: SparseTermVector, index: KindIndex): LabelSimilarities {
    const scores = new Float64Array(index.nameLengths.length)
    const touched: number[] = []
    for (let k = 0; k < vector.termIds.length; k++) {
      const term = vector.termIds[k]!
      const weight = vector.weights[k]!
      for (let p = index.postingOffsets[term]!; p < index.postingOffsets[term + 1]!; p++) {
        const label = index.postingLabels[p]!
        if (scores[label] === 0) touched.push(label)
        scores[label]! += weight * index.postingWeights[p]!
      }
    }
    return { scores, touched }
  }

  /**
   * One binary file: magic 'OQTM', format version, header length (u32 LE each), the header as UTF-8 JSON
   * (settings, training size, each kind's labels as [id, display_name] and its centroid term count), padded to
   * 4 bytes, then the vectoriser's bytes (length-prefixed, padded), then per kind in TAG_KINDS order: work
   * counts and centroid offsets (u32 per label, +1), centroid term ids (u32) and weights (f32).
   */
  serialize(): Uint8Array {
    const kinds: ModelHeader['kinds'] = {}
    for (const kind of this.kinds) {
      const set = this.#labels[kind]!
      kinds[kind] = { labels: set.ids.map((id, i) => [id, set.names[i]!]), terms: set.centroidTermIds.length }
    }
    const header: ModelHeader = { settings: this.settings, trainedWorks: this.trainedWorks, kinds }
    const headerBytes = new TextEncoder().encode(JSON.stringify(header))
    const vocabulary = this.vectorizer.serialize()
    const writer = new ByteWriter()
    writer.u32(MAGIC)
    writer.u32(FORMAT_VERSION)
    writer.u32(headerBytes.length)
    writer.bytes(headerBytes)
    writer.u32(vocabulary.length)
    writer.bytes(vocabulary)
    for (const kind of this.kinds) {
      const set = this.#labels[kind]!
      writer.u32s(set.workCounts)
      writer.u32s(set.centroidOffsets)
      writer.u32s(set.centroidTermIds)
      writer.f32s(set.centroidWeights)
    }
    return writer.finish()
  }

  static deserialize(bytes: Uint8Array): TextTagModel {
    const reader = new ByteReader(bytes)
    if (bytes.length < 12 || reader.u32() !== MAGIC)
      throw new TagModelFormatError('not a tag model: bad magic')
    const version = reader.u32()
    if (version !== FORMAT_VERSION)
      throw new TagModelFormatError(`tag model format ${version}; this build reads ${FORMAT_VERSION}`)
    const header = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(reader.bytes(reader.u32())),
    ) as ModelHeader
    const vectorizer = TermVectorizer.deserialize(reader.bytes(reader.u32()))
    const labels: Partial<Record<TagKind, TagLabelSet>> = {}
    for (const kind of ['keywords', 'concepts', 'topics'] as const) {
      const entry = header.kinds[kind]
      if (entry === undefined) continue
      const count = entry.labels.length
      labels[kind] = {
        ids: entry.labels.map(([id]) => id),
        names: entry.labels.map(([, name]) => name),
        workCounts: reader.u32s(count),
        centroidOffsets: reader.u32s(count + 1),
        centroidTermIds: reader.u32s(entry.terms),
        centroidWeights: reader.f32s(entry.terms),
      }
    }
    return new TextTagModel(vectorizer, labels, header.settings, header.trainedWorks)
  }
}

/** Little-endian writes into a growing buffer; every section starts on a 4-byte boundary. */
class ByteWriter {
  #buffer = new Uint8Array(1 << 16)
  #view = new DataView(this.#buffer.buffer)
  #length = 0

  #reserve(extra: number): void {
    if (this.#length + extra <= this.#buffer.length) return
    const next = new Uint8Array(Math.max(this.#buffer.length * 2, this.#length + extra))
    next.set(this.#buffer.subarray(0, this.#length))
    this.#buffer = next
    this.#view = new DataView(next.buffer)
  }

  u32(value: number): void {
    this.#reserve(4)
    this.#view.setUint32(this.#length, value, true)
    this.#length += 4
  }

  bytes(value: Uint8Array): void {
    const padded = (value.length + 3) & ~3
    this.#reserve(padded)
    this.#buffer.set(value, this.#length)
    this.#buffer.fill(0, this.#length + value.length, this.#length + padded)
    this.#length += padded
  }

  u32s(values: Uint32Array): void {
    this.#reserve(values.length * 4)
    for (const value of values) {
      this.#view.setUint32(this.#length, value, true)
      this.#length += 4
    }
  }

  f32s(values: Float32Array): void {
    this.#reserve(values.length * 4)
    for (const value of values) {
      this.#view.setFloat32(this.#length, value, true)
      this.#length += 4
    }
  }

  finish(): Uint8Array {
    return this.#buffer.slice(0, this.#length)
  }
}

class ByteReader {
  readonly #bytes: Uint8Array
  readonly #view: DataView
  #offset = 0

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }

  #need(length: number): void {
    if (this.#offset + length > this.#bytes.length) throw new TagModelFormatError('tag model truncated')
  }

  u32(): number {
    this.#need(4)
    const value = this.#view.getUint32(this.#offset, true)
    this.#offset += 4
    return value
  }

  bytes(length: number): Uint8Array {
    this.#need(length)
    const value = this.#bytes.subarray(this.#offset, this.#offset + length)
    this.#offset += (length + 3) & ~3
    return value
  }

  u32s(count: number): Uint32Array {
    this.#need(count * 4)
    const values = new Uint32Array(count)
    for (let i = 0; i < count; i++) values[i] = this.#view.getUint32(this.#offset + 4 * i, true)
    this.#offset += count * 4
    return values
  }

  f32s(count: number): Float32Array {
    this.#need(count * 4)
    const values = new Float32Array(count)
    for (let i = 0; i < count; i++) values[i] = this.#view.getFloat32(this.#offset + 4 * i, true)
    this.#offset += count * 4
    return values
  }
}
