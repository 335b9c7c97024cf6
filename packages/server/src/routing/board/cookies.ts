/** The board's cookie names that more than one module reads. */

/** An anonymous voter's cookie (where the board takes anonymous votes). */
export const VISITOR_COOKIE = 'signpost_board_visitor';
