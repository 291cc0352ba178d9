import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity'

/** Says whether a text is profane; collections refuse such display names. */
export interface ProfanityFilter {
  readonly isProfane: (text: string) => boolean
}

let english: RegExpMatcher | undefined

/**
 * The English word list and matching rules of the `obscenity` package (a maintained list that also
 * catches spaced, repeated and look-alike spellings), built on first use.
 */
export const englishProfanityFilter: ProfanityFilter = {
  isProfane: (text) => {
    english ??= new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers })
    return english.hasMatch(text)
  },
}
