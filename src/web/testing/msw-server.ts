import { setupServer } from "msw/node";

/** The network edge of every web test; each test adds the handlers it needs. */
export const mswServer = setupServer();
