import { describe, expect, it } from "vitest";
import { buildSessionAnswer, createTestUser } from "../../testing/fakes/fake-auth-server";
import { readSignedInState } from "./auth-session";

describe("readSignedInState", () => {
	it("reads the session and its user from Better Auth's answer", () => {
		const user = createTestUser({ isAdmin: true });
		const answer = buildSessionAnswer(user);

		expect(readSignedInState(answer)).toEqual({
			session: {
				id: answer.session.id,
				userId: user.id,
				expiresAt: new Date(answer.session.expiresAt),
			},
			user: {
				id: user.id,
				email: user.email,
				name: user.name,
				isAdmin: true,
				emailVerified: false,
				isAdminUnclaimed: false,
			},
		});
	});

	it("reads whether the account at the administrator's address has yet to claim it", () => {
		const answer = buildSessionAnswer(createTestUser({ isAdminUnclaimed: true }));
		expect(readSignedInState(answer)?.user).toMatchObject({
			isAdmin: false,
			isAdminUnclaimed: true,
		});
	});

	it("is null when nobody is signed in", () => {
		expect(readSignedInState(null)).toBeNull();
	});

	it("is undefined for an answer of another shape", () => {
		const answer = buildSessionAnswer(createTestUser());
		expect(readSignedInState("signed in")).toBeUndefined();
		expect(readSignedInState({ session: answer.session })).toBeUndefined();
		expect(
			readSignedInState({ ...answer, user: { ...answer.user, isAdmin: "yes" } }),
		).toBeUndefined();
		expect(
			readSignedInState({ ...answer, session: { ...answer.session, expiresAt: "soon" } }),
		).toBeUndefined();
		expect(readSignedInState({ ...answer, user: { ...answer.user, email: 7 } })).toBeUndefined();
	});
});
