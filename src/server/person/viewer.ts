/**
 * Who asks: a signed-in person, or the owner of the API token the request presents. `isAdmin` is
 * the administrator's reach over everyone's generations and people, which only their browser
 * session has: a token acts as its owner only, the administrator's too.
 */
export type Viewer = { id: string; email: string; isAdmin: boolean };
