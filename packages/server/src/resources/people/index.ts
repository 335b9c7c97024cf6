/**
 * People (issue 30): every end user of a project as one person, whatever way they came (a public
 * API voterId, a board user, a contact e-mail), with their company. What other resources may use:
 * their writes call touchPerson / identifyBoardUser in their own transaction.
 */
export {
  identifyBoardUser,
  onBehalfAuthor,
  type OnBehalfAuthor,
  peopleByAlias,
  touchPerson,
  type AliasKind,
  type CompanyFacts,
  type PersonFacts,
  type PersonWithCompany,
} from './store.ts';
// Another tool's export's people, in one batch (resources/imports).
export { importPeople, type ImportedPerson } from './store-import.ts';
export { presentPersonSummary, PersonSummary } from './presenter.ts';
// The MCP feedback tool answers a person as the management API does (their export: mcp-export.ts).
export { personPage } from './person-data.ts';
export { searchPeople } from './search.ts';
