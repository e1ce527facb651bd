/** What every request of the app carries, for Hono's typed `context.get`: set by the app, read by routes. */
export type AppEnv = {
	Variables: {
		requestId: string;
	};
};
