// Well-formed external ids for generated entities (ORCID, ROR, ISSN, DOI), each with a valid check digit,
// derived from the entity number so the same entity always gets the same id. They live in corners of the
// id spaces real registries do not use much (ORCID 0009-5…, ROR 0z…, ISSN 9…, DOI prefix 10.5555, the
// prefix set aside for examples), but nothing guarantees a real registry never issued one: they are test data.

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz'

/** `https://orcid.org/0009-5xxx-xxxx-xxxC` with the ISO 7064 11,2 check character. */
export function forgeOrcid(index: number): string {
  const digits = `00095${String(index % 10_000_000_000).padStart(10, '0')}`
  let total = 0
  for (const digit of digits) total = (total + Number(digit)) * 2
  const check = (12 - (total % 11)) % 11
  const all = `${digits}${check === 10 ? 'X' : String(check)}`
  return `https://orcid.org/${all.slice(0, 4)}-${all.slice(4, 8)}-${all.slice(8, 12)}-${all.slice(12)}`
}

/** `https://ror.org/0z…` : 7 base-32 characters then the ISO 7064 97-10 check number, as ROR ids are built. */
export function forgeRor(index: number): string {
  let value = index % 32 ** 5
  let body = ''
  for (let i = 0; i < 5; i++) {
    body = CROCKFORD[value % 32]! + body
    value = Math.floor(value / 32)
  }
  const text = `0z${body}`
  let number = 0
  for (const char of text) number = number * 32 + CROCKFORD.indexOf(char)
  const check = 98 - ((number * 100) % 97)
  return `https://ror.org/${text}${String(check).padStart(2, '0')}`
}

/** `9xxx-xxxC`: an ISSN with its mod-11 check character. */
export function forgeIssn(index: number): string {
  const digits = String(9_000_000 + (index % 1_000_000))
  let sum = 0
  for (let i = 0; i < 7; i++) sum += Number(digits[i]) * (8 - i)
  const check = (11 - (sum % 11)) % 11
  return `${digits.slice(0, 4)}-${digits.slice(4)}${check === 10 ? 'X' : String(check)}`
}

/** The DOI of generated work number `n` (its OpenAlex id number). */
export function forgeWorkDoi(idNumber: number): string {
  return `https://doi.org/10.5555/oqlkit.${idNumber}`
}
