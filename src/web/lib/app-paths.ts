// Addresses of screens that more than one feature links to (features do not import each other).

/** The administrator's audit log: who deleted whose generation, and when. */
export const AUDIT_LOG_PATH = "/admin/audit-log";
