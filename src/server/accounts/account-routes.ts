import { Hono } from "hono";
import { z } from "zod";
import { ACCOUNT_LABEL } from "../../shared/core/constants";
import {
	accountRefusedConfirmEmailMissing,
	accountRefusedConfirmEmailWrong,
	accountRefusedTooManyMails,
} from "../../shared/i18n/messages";
import type { Auth } from "../auth/auth";
import { withClientIp } from "../auth/forward-to-auth";
import { describeBoardsOf } from "../boards/export-boards";
import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { createGenerationArchive } from "../generations/files/generation-archive";
import { selectGenerationsOfUser } from "../generations/generation-repository";
import type { Gate, ViewerEnv } from "../http/app-env";
import { errorResponse } from "../http/errors";
import { parseOrThrow } from "../http/request-input";
import type { Storage } from "../storage/storage";
import { addressKey, consumeAddressLimit, MAIL_PER_ADDRESS_LIMIT } from "./address-rate-limit";

type AccountRoutesConfig = {
	trustProxy: boolean;
	isRateLimitEnabled: boolean;
};

const DeleteAccountRequestSchema = z.object({
	email: z
		.string({ error: () => accountRefusedConfirmEmailMissing() })
		.trim()
		.max(320),
});

/** The JSON body of a request without consuming it, or an empty object when it has none. */
async function peekJson(message: Request | Response): Promise<Record<string, unknown>> {
	const body: unknown = await message
		.clone()
		.json()
		.catch(() => undefined);
	return typeof body === "object" && body !== null && !Array.isArray(body)
		? (body as Record<string, unknown>)
		: {};
}

/** Better Auth's `{ code, message }` from a failed answer, if it has one. */
async function readAuthErrorCode(response: Response): Promise<string | undefined> {
	const { code } = await peekJson(response);
	return typeof code === "string" ? code : undefined;
}

/**
 * Atelier's account rules around Better Auth's own endpoints (per-address limits on mail, account
 * deletion only with its confirmation) and the account's own routes: `GET /account/export` and
 * `POST /account/delete`. Signing in after a password reset is Better Auth's own hook
 * (auth/password-reset-sign-in.ts).
 */
export function createAccountRoutes(options: {
	auth: Auth;
	database: Database;
	/** The one gate (auth/request-viewer.ts): the account's routes are for a signed-in browser. */
	gate: Gate;
	storage: Storage | undefined;
	config: AccountRoutesConfig;
}) {
	const { auth, database, gate, storage, config } = options;
	const app = new Hono<ViewerEnv>();

	// Three reset or verification e-mails an hour per address, on top of Better Auth's limit per
	// client. The count does not depend on whether the address has an account, so the answer
	// tells nothing about that either.
	for (const path of ["/auth/request-password-reset", "/auth/send-verification-email"]) {
		app.post(path, async (context, next) => {
			if (!config.isRateLimitEnabled) return next();
			const { email } = await peekJson(context.req.raw);
			if (typeof email !== "string" || email.trim() === "") return next();
			const { isAllowed } = await consumeAddressLimit(
				database.db,
				addressKey(path.slice("/auth/".length), email),
				MAIL_PER_ADDRESS_LIMIT,
			);
			if (!isAllowed) {
				return errorResponse(context, "RATE_LIMITED", (options) =>
					accountRefusedTooManyMails(options),
				);
			}
			return next();
		});
	}

	// Deleting an account goes through POST /account/delete, which asks for its confirmation.
	app.on(["GET", "POST"], ["/auth/delete-user", "/auth/delete-user/*"], (context) =>
		errorResponse(context, "NOT_FOUND"),
	);

	app.get("/account/export", gate.allowSessionOnly, async (context) => {
		const user = await database.db
			.selectFrom("user")
			.select(["email", "emailVerified", "createdAt"])
			.where("id", "=", context.get("viewer").id)
			.executeTakeFirst();
		if (!user) throw new AppError("AUTH_ERROR");
		if (!storage) throw new AppError("SERVICE_UNAVAILABLE");
		const generations = await selectGenerationsOfUser(database.db, context.get("viewer").id);
		const account = {
			email: user.email,
			label: ACCOUNT_LABEL,
			emailVerified: user.emailVerified,
			createdAt: new Date(user.createdAt).toISOString(),
			exportedAt: new Date().toISOString(),
			generations: generations.length,
			trash: "Generations in the Trash are left out of this export: restore them to include them.",
		};
		const boards = await describeBoardsOf(database.db, context.get("viewer").id);
		const archive = createGenerationArchive({
			generations,
			storage,
			files: [
				{ name: "account.json", content: `${JSON.stringify(account, null, 2)}\n` },
				{ name: "boards.json", content: `${JSON.stringify(boards, null, 2)}\n` },
			],
		});
		const day = new Date().toISOString().slice(0, 10);
		return context.body(archive, 200, {
			"content-type": "application/zip",
			"content-disposition": `attachment; filename="atelier-export-${day}.zip"`,
			"cache-control": "no-store",
		});
	});

	app.post("/account/delete", gate.allowSessionOnly, async (context) => {
		const viewer = context.get("viewer");
		const request = parseOrThrow(
			DeleteAccountRequestSchema,
			await context.req.json().catch(() => undefined),
		);
		if (request.email.toLowerCase() !== viewer.email.trim().toLowerCase()) {
			throw new AppError("VALIDATION_ERROR", (options) => accountRefusedConfirmEmailWrong(options));
		}
		if (viewer.isAdmin) throw new AppError("ADMIN_ACCOUNT_PROTECTED");

		const deleted = await auth.api.deleteUser({
			body: {},
			headers: withClientIp(context, config.trustProxy),
			asResponse: true,
		});
		if (!deleted.ok) {
			const code = await readAuthErrorCode(deleted);
			if (code === "SESSION_EXPIRED") throw new AppError("SIGN_IN_AGAIN");
			if (code === "ADMIN_ACCOUNT_PROTECTED") throw new AppError("ADMIN_ACCOUNT_PROTECTED");
			throw new Error(`Better Auth refused to delete the account: ${deleted.status} ${code}`);
		}
		const headers = new Headers({ "content-type": "application/json" });
		for (const cookie of deleted.headers.getSetCookie()) headers.append("set-cookie", cookie);
		return new Response(JSON.stringify({ success: true }), { status: 200, headers });
	});

	return app;
}
