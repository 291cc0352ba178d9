// An entity as a page a person reads (entity-page-model.ts says what is on it): its title, the facts, the
// abstract, the entities it names as links to their own pages, and buttons that run the queries that follow
// from it ("works citing this"). Its JSON stays a link away.
import type { EntityLink, EntityPageModel } from './entity-page-model.ts'

export interface EntityPageOptions {
  /** The entity's own JSON (the singleton the API serves). */
  readonly jsonUrl: string
  /** Where another entity's page is: `playground?entity=authors/A123`. */
  readonly pageUrl: (link: EntityLink) => string
  /** Puts a query in the editor and runs it. */
  readonly runQuery: (oql: string) => void
}

const linkTo = (href: string, text: string): HTMLAnchorElement => {
  const link = document.createElement('a')
  link.href = href
  link.textContent = text
  return link
}

export const renderEntityPage = (model: EntityPageModel, options: EntityPageOptions): HTMLElement => {
  const article = document.createElement('article')
  article.className = 'entity-page'
  const title = document.createElement('h3')
  title.textContent = model.title
  const facts = document.createElement('dl')
  for (const fact of model.facts) {
    const term = document.createElement('dt')
    term.textContent = fact.label
    const detail = document.createElement('dd')
    if (fact.links !== undefined)
      fact.links.forEach((link, index) => {
        if (index > 0) detail.append(', ')
        detail.append(linkTo(options.pageUrl(link), link.name))
      })
    else if (fact.url !== undefined) detail.append(linkTo(fact.url, fact.text ?? fact.url))
    else detail.textContent = fact.text ?? ''
    facts.append(term, detail)
  }
  article.append(title, facts)
  if (model.abstract !== undefined) {
    const abstract = document.createElement('p')
    abstract.className = 'abstract'
    abstract.textContent = model.abstract
    article.append(abstract)
  }
  const actions = document.createElement('div')
  actions.className = 'actions'
  for (const query of model.queries) {
    const button = document.createElement('button')
    button.type = 'button'
    button.className = 'secondary'
    button.textContent = query.label
    button.title = query.oql
    button.addEventListener('click', () => options.runQuery(query.oql))
    actions.append(button)
  }
  const json = linkTo(options.jsonUrl, 'As JSON')
  json.className = 'button-link'
  actions.append(json)
  article.append(actions)
  return article
}
