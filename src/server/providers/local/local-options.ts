import { z } from "zod";
import { defineProvider } from "../shared/provider-definition";
import { createLocalProvider } from "./local-provider";

/** The offline engine, drawn on this server: it needs nothing to start. */
export const LOCAL_PROVIDER = defineProvider({
	label: "Offline engine",
	env: {
		LOCAL_ENGINE_DELAY_MS: z.coerce.number().int().min(0).max(60_000).optional().default(3000),
	},
	options: {
		/** How long a job reports "running" before it renders. */
		delayMs: z.number().int().min(0).max(60_000).optional(),
	},
	create(options, { env }) {
		return createLocalProvider({ delayMs: options.delayMs ?? env.LOCAL_ENGINE_DELAY_MS });
	},
});
