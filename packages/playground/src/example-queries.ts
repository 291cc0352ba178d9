// The example gallery's questions: what researchers ask of a catalog, each with its OQL. Each query is
// checked against the bundled sample by the tests (it parses, runs and finds something), so the gallery
// cannot hold a query the language or the sample no longer answers. No DOM here: example-gallery.ts draws it.

export interface ExampleQuery {
  /** The question, as a researcher would ask it. */
  readonly question: string
  readonly oql: string
}

export const EXAMPLE_QUERIES: readonly ExampleQuery[] = [
  {
    question: "An institution's works by year",
    oql: 'works where exact institution is (I241749) group by year',
  },
  { question: 'Open access by publisher', oql: 'works group by publisher, open access' },
  {
    question: 'A systematic-review search: terms combined with and, or and quotes',
    oql: 'works where title/abstract has ((covid or coronavirus or "sars-cov-2") and (vaccine or vaccination)) and year >= 2020',
  },
  {
    question: 'Two words within five words of each other',
    oql: 'works where title/abstract has (within 5 (machine, learning))',
  },
  {
    question: 'Works close in meaning to a passage, from 2015 on',
    oql: 'works where abstract is similar to ("deep learning for medical image segmentation") and year >= 2015',
  },
  { question: 'The topics of a decade', oql: 'works where year >= 2015 and year <= 2024 group by topic' },
  { question: 'Works cited more than 1,000 times', oql: 'works where citation count > 1000' },
  { question: "An author's works", oql: 'works where author is (A5009198168)' },
  { question: 'Works that cite a paper (ResNet)', oql: 'works where it cites (W2194775991)' },
  { question: 'How open access splits', oql: 'works group by open access status' },
  { question: "A country's research by type", oql: 'works where institution country is (GB) group by type' },
  { question: 'Institutions by country', oql: 'institutions group by country' },
]
