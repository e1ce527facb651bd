// Addresses of screens that more than one feature links to (features do not import each other).
// The route table (src/shared/app-routes.ts) owns them.

export { AUDIT_LOG_PATH, PEOPLE_PATH } from "../../shared/app-routes";
