// How many rows a page of each listing holds, for the server's defaults and the screens that ask.
// No schema library: the browser imports it wherever it pages.

/**
 * The history's page, `GET /api/generations` without `limit`: two or three screens of cards on a
 * wide screen, small enough to answer at once.
 */
export const GENERATIONS_PAGE_SIZE = 24;
/** The audit log's page, `GET /api/admin/audit-log` without `limit`. */
export const AUDIT_LOG_PAGE_SIZE = 50;
/** The People page's page, `GET /api/admin/people` without `limit`. */
export const PEOPLE_PAGE_SIZE = 50;
/** The most rows any listing answers at once, whatever `limit` asks. */
export const MAX_PAGE_SIZE = 100;
