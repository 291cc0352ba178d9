/**
 * The stable parse codes of OQL text (OQL v2.2 §3.8, plus the two codes of #865). A code never changes
 * meaning once published; the summary is one line for registries and docs. Validation codes of the
 * parsed object (`invalid_…`) come from `@oqlkit/oqo-schema`.
 */
export const OQL_DIAGNOSTIC_CODES = {
  OQL_UNTERMINATED_STRING: 'A quoted string has no closing quote.',
  OQL_UNTERMINATED_ANNOTATION: 'A [annotation] has no closing bracket.',
  OQL_EMPTY: 'The query, or the conditions after where or a connective, are empty.',
  OQL_MISSING_ENTITY: 'The query does not start with an entity type.',
  OQL_UNKNOWN_ENTITY: 'The first word is not an entity type.',
  OQL_BAD_CORPUS: 'The parenthetical after the entity is not a corpus.',
  OQL_TRAILING_TOKENS:
    'Text follows the query, or the conditions inside a ( … ), that is neither a condition nor a directive.',
  OQL_IMPLICIT_ADJACENCY: 'Two conditions follow each other with no and/or between them.',
  OQL_UNBALANCED_PARENS: 'A parenthesis is not closed, or closes nothing.',
  OQL_UNKNOWN_FIELD: 'A field name is not a field of the entity.',
  OQL_MISSING_OPERATOR: 'A field is not followed by an operator.',
  OQL_BAD_OPERATOR_FOR_FIELD: 'The operator does not apply to the kind of field.',
  OQL_CONTAINS_RENAMED: '`contains` was renamed to `has` (and `does not contain` to `does not have`).',
  OQL_BAD_VERB_PHRASE: 'A clause starting with `it` is not one of the row-subject verb phrases.',
  OQL_BAD_BOOL_VALUE: 'A yes/no field takes true or false.',
  OQL_MISSING_VALUE: 'An operator, connective or group has no value after it.',
  OQL_MISSING_ENTITY_ID: 'An entity field has a [display name] but no id.',
  OQL_BAD_NUMBER: 'A number field has a value that is not a number of its kind.',
  OQL_BAD_DATE: 'A date field has a value that is not a YYYY-MM-DD date.',
  OQL_RANGE_LITERAL_REMOVED: 'A dash range such as 2019-2023 is no longer OQL; bounds are two conditions.',
  OQL_BAD_COLLECTION_REF: '`in collection` takes a collection id (col_…).',
  OQL_UNDELIMITED_TERM_LIST: 'Two or more values or search terms are not wrapped in parentheses.',
  OQL_COMMA_IN_GROUP: 'Items of a ( … ) group are separated by commas instead of or/and.',
  OQL_GROUP_VALUES_NEED_CONNECTIVE: 'Two values of a ( … ) group have no or/and between them.',
  OQL_GROUP_NEEDS_ONE_VALUE: 'A comparison, yes/no, collection or similarity clause has more than one value.',
  OQL_BANG_NOT_SUPPORTED: '`!` is not an OQL operator; OQL negates with not.',
  OQL_SEMANTIC_NEEDS_TEXT: '`is similar to` takes one quoted passage.',
  OQL_BAD_PROXIMITY: 'A `within N ( … )` proximity is malformed.',
  OQL_PROXIMITY_SUFFIX_REMOVED:
    'The `"…" within N words` suffix was removed; proximity is `within N (a, b)`.',
  OQL_PROXIMITY_NEEDS_OPERANDS: 'A proximity has fewer than two terms.',
  OQL_PROXIMITY_MIXED_OPERANDS: 'A proximity mixes bare (stemmed) and quoted (exact) terms.',
  OQL_WILDCARD_NEEDS_EXACT: 'A wildcard is in a stemmed term; wildcards run on quoted (exact) text.',
  OQL_LEADING_WILDCARD: 'A term starts with a wildcard.',
  OQL_SHORT_WILDCARD_PREFIX: 'Fewer than 3 characters come before a wildcard.',
  OQL_TOO_MANY_WILDCARDS: 'More than 2 wildcards are in one phrase or proximity.',
  OQL_MULTI_WILDCARD_SHORT_PREFIX: 'With 2 wildcards in one phrase or proximity, a prefix is shorter than 4.',
  OQL_BAD_SAMPLE: '`sample` needs a whole number, and `seed` a value.',
  OQL_NO_FUZZY: '`~` (fuzzy or slop) is not OQL syntax.',
  OQL_CHAR_NOT_OPERATOR: '`|` and `\\` are not OQL operators.',
  OQL_PARSE_ERROR: 'The text could not be parsed (catch-all).',
} as const

export type OqlDiagnosticCode = keyof typeof OQL_DIAGNOSTIC_CODES

export const isOqlDiagnosticCode = (code: string): code is OqlDiagnosticCode =>
  Object.hasOwn(OQL_DIAGNOSTIC_CODES, code)

/** The fix each code suggests when the site of the error has nothing more specific to say. */
export const DEFAULT_FIXES: Readonly<Record<OqlDiagnosticCode, string>> = {
  OQL_UNTERMINATED_STRING: 'Close the quoted text with a matching ".',
  OQL_UNTERMINATED_ANNOTATION: 'Close the annotation with ], or remove it.',
  OQL_EMPTY: 'Write an entity type and conditions, e.g. works where year is (2020).',
  OQL_MISSING_ENTITY: 'Start the query with an entity type such as works or authors.',
  OQL_UNKNOWN_ENTITY: 'Start the query with an entity type such as works, authors, sources or institutions.',
  OQL_BAD_CORPUS:
    'Write (all corpora) or (expansion corpus), or leave the parenthetical out for the core corpus.',
  OQL_TRAILING_TOKENS:
    'Remove the text, join a condition with and/or, or use a directive (group by, sample).',
  OQL_IMPLICIT_ADJACENCY: 'Join the two conditions with and or or.',
  OQL_UNBALANCED_PARENS: 'Balance the parentheses: every ( needs a ).',
  OQL_UNKNOWN_FIELD: 'Use a field of the entity; GET /properties lists the columns.',
  OQL_MISSING_OPERATOR: 'Follow the field with an operator such as is, is not, has, >= or <=.',
  OQL_BAD_OPERATOR_FOR_FIELD: 'Use an operator the field takes.',
  OQL_CONTAINS_RENAMED: 'Write has instead of contains, and does not have instead of does not contain.',
  OQL_BAD_VERB_PHRASE:
    "Write it cites (W…), it's cited by (W…) or it's related to (W…); negate the value, e.g. it cites (not W1).",
  OQL_BAD_BOOL_VALUE: 'Write true or false, e.g. open access is (true).',
  OQL_MISSING_VALUE: 'Give a value after the operator, e.g. type is (article).',
  OQL_MISSING_ENTITY_ID: 'Put the OpenAlex ID first, e.g. institution is (I136199984 [Harvard]).',
  OQL_BAD_NUMBER: 'Write a number, e.g. year is (2020).',
  OQL_BAD_DATE: 'Write the date as YYYY-MM-DD, e.g. date >= (2020-01-01).',
  OQL_RANGE_LITERAL_REMOVED: 'Write the bounds as two conditions, e.g. year >= (2019) and year <= (2023).',
  OQL_BAD_COLLECTION_REF: 'Give a collection id, e.g. work is in collection (col_abc123).',
  OQL_UNDELIMITED_TERM_LIST: 'Wrap the values in parentheses joined by or/and, e.g. country is (US or GB).',
  OQL_COMMA_IN_GROUP: 'Join the items with or/and instead of commas, e.g. type is (article or review).',
  OQL_GROUP_VALUES_NEED_CONNECTIVE:
    'Join the values with or/and, e.g. type is (article or review); quote a value that has spaces.',
  OQL_GROUP_NEEDS_ONE_VALUE: 'Give one value, or write one condition per value joined with or.',
  OQL_BANG_NOT_SUPPORTED: 'Negate with not, e.g. title has (vaccine and not mandatory).',
  OQL_SEMANTIC_NEEDS_TEXT: 'Give one quoted passage, e.g. abstract is similar to ("graph neural networks").',
  OQL_BAD_PROXIMITY: 'Write a number and comma-separated terms, e.g. within 3 ("smart", "phone").',
  OQL_PROXIMITY_SUFFIX_REMOVED: 'Put the proximity first, e.g. title has (within 3 ("smart", "phone")).',
  OQL_PROXIMITY_NEEDS_OPERANDS: 'Give at least two terms, e.g. within 3 ("smart", "phone").',
  OQL_PROXIMITY_MIXED_OPERANDS: 'Quote every term (exact) or none of them (stemmed).',
  OQL_WILDCARD_NEEDS_EXACT: 'Quote the term so that it runs on exact text, e.g. ("bar*").',
  OQL_LEADING_WILDCARD: 'Start the term with at least 3 characters, e.g. ("cycl*").',
  OQL_SHORT_WILDCARD_PREFIX: 'Write at least 3 characters before the wildcard, e.g. ("psy*").',
  OQL_TOO_MANY_WILDCARDS: 'Use at most 2 wildcards in one phrase or proximity.',
  OQL_MULTI_WILDCARD_SHORT_PREFIX: 'With 2 wildcards, write at least 4 characters before each.',
  OQL_BAD_SAMPLE: 'Write a whole number, e.g. sample 100 seed 42.',
  OQL_NO_FUZZY:
    'OQL has no fuzzy matching; for words near each other write within N (a, b), e.g. within 3 ("smart", "phone").',
  OQL_CHAR_NOT_OPERATOR: 'Join terms with or/and, e.g. title has (dog or cat).',
  OQL_PARSE_ERROR: 'Check the query against the OQL grammar, e.g. works where year is (2020).',
}
