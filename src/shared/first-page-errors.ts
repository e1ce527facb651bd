// The error catalogue's entries the first page shows by itself, without an answer from the server
// to take the words from: no connection, an answer it cannot read, a crash, a visitor who must sign
// in, an unverified address.
// The catalogue (errors.ts) includes them; the first page imports only this module, so the other
// codes' messages load with the screens that show them (docs/decisions/005-first-load-budget.md).

export const FIRST_PAGE_ERRORS = {
	NETWORK_ERROR: {
		status: 503,
		message: "Network connection failed. Please check your internet connection and try again.",
	},
	API_ERROR: { status: 502, message: "API request failed. Please try again later." },
	UNKNOWN_ERROR: { status: 500, message: "An unexpected error occurred. Please try again." },
	SIGN_IN_REQUIRED: { status: 401, message: "Please sign in to generate images." },
	EMAIL_NOT_VERIFIED: {
		status: 403,
		message:
			"Please verify your e-mail address to generate images. Open the link we sent you, or send the e-mail again.",
	},
} as const;
