// The search budget. Looking for the closest place of an edit that matched
// nowhere is only for the message, and it compares lines by similarity, the
// costly comparison. It is bounded per edit and per request, in characters
// compared, so that a reply of thousands of failing edits against a big file
// costs a bounded time; an edit whose search stopped early says so.
//
// The request's budget is a value passed down explicitly: the engine makes
// one per request (`requestBudget`) and hands it to the ladder and to each
// format's `locate`; each search draws its own allowance from it
// (`searchBudget`).

import { lineSimilarity } from './line-similarity.ts';
import type { RequestBudget, Unplaced } from './types.ts';

export type { RequestBudget } from './types.ts';

/** Characters compared by one edit's search for its closest place. */
export const SEARCH_BUDGET_PER_EDIT = 1_000_000;
/** Characters compared by all the closest-place searches of one request. */
export const SEARCH_BUDGET_PER_REQUEST = 10_000_000;

/** A fresh request-wide budget (the engine makes one per request). */
export function requestBudget(characters = SEARCH_BUDGET_PER_REQUEST): RequestBudget {
  return { remaining: characters };
}

/** One search's budget: its own allowance, drawn from the request's too when there is one. */
export interface SearchBudget {
  /** Anything left to spend. */
  left(): boolean;
  /** Record `characters` compared. */
  spend(characters: number): void;
}

/**
 * A budget for one search: `characters` of its own, and drawn from
 * `request` too when given (null: the search is bounded by its own
 * allowance only, as when the ladder is called outside a request).
 */
export function searchBudget(request: RequestBudget | null = null, characters = SEARCH_BUDGET_PER_EDIT): SearchBudget {
  let own = characters;
  return {
    left: () => own > 0 && (request === null || request.remaining > 0),
    spend(n: number) {
      own -= n;
      if (request) request.remaining -= n;
    },
  };
}

/** How much of the closest-place search was done, when it stopped early. */
export function searchedNote(outcome: Pick<Unplaced, 'searched'>): string {
  const s = outcome.searched;
  if (!s) return '';
  return s.compared === 0
    ? " (no place was compared: the reply's failed edits used up the search for closest places)"
    : ` (the search for the closest place, which is bounded, compared ${s.compared} of the ${s.places} places)`;
}

/**
 * Whether the search for the closest place stopped before comparing any
 * place: a message then names no place and says only that (it cannot say
 * that nothing comes close, nor name a place it did not compare).
 */
export function unsearched(outcome: Pick<Unplaced, 'searched'>): boolean {
  return outcome.searched?.compared === 0;
}

/** What a message says of an edit whose closest-place search compared no place. */
export const UNSEARCHED = "no place was compared: the reply's failed edits used up the search for closest places";

/** `lineSimilarity`, paid for from a search budget. */
export function budgetedSimilarity(budget: SearchBudget, cited: string, actual: string): number {
  if (cited === actual) {
    budget.spend(1);
    return 1;
  }
  budget.spend(cited.length + actual.length + 2);
  return lineSimilarity(cited, actual);
}
