import { OAuth2Server } from "oauth2-mock-server";

export type FakeGoogle = {
	issuerUrl: string;
	discoveryUrl: string;
	stop(): Promise<void>;
};

export const FAKE_GOOGLE_USER = {
	sub: "google-oauth2|1234567890",
	email: "google.person@example.com",
	name: "Google Person",
};

type FakeGoogleOptions = {
	/** Whether Google vouches for the person's address (`email_verified`); it does by default. */
	isEmailVerified?: boolean;
};

/**
 * A local OpenID Connect server on 127.0.0.1 that stands in for Google: discovery, authorize (with
 * PKCE), token and userinfo, signing real RS256 ID tokens for one fixed person.
 */
export async function startFakeGoogle(
	port = 0,
	{ isEmailVerified = true }: FakeGoogleOptions = {},
): Promise<FakeGoogle> {
	const server = new OAuth2Server();
	await server.issuer.keys.generate("RS256");
	server.service.on("beforeTokenSigning", (token) => {
		token.payload.sub = FAKE_GOOGLE_USER.sub;
		token.payload.email = FAKE_GOOGLE_USER.email;
		token.payload.email_verified = isEmailVerified;
		token.payload.name = FAKE_GOOGLE_USER.name;
	});
	server.service.on("beforeUserinfo", (response) => {
		response.body = { ...FAKE_GOOGLE_USER, email_verified: isEmailVerified };
	});
	await server.start(port, "127.0.0.1");
	const issuerUrl = server.issuer.url ?? "";
	return {
		issuerUrl,
		discoveryUrl: `${issuerUrl}/.well-known/openid-configuration`,
		stop: () => server.stop(),
	};
}
