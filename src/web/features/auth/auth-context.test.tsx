import { screen } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { mswServer } from "../../testing/msw-server";
import { renderWithProviders } from "../../testing/render-app";
import { useAuth } from "./auth-context";

function AuthProbe({ email = "", password = "" }: { email?: string; password?: string }) {
	const { user, session, isLoading, isAdmin, signIn, signOut } = useAuth();
	if (isLoading) return <p>Loading session</p>;
	return (
		<div>
			<p>{user ? `Signed in as ${user.email}` : "Signed out"}</p>
			<p>{isAdmin ? "Administrator" : "Not an administrator"}</p>
			<p>{session ? `Session ${session.id} for ${session.userId}` : "No session"}</p>
			<button type="button" onClick={() => void signIn({ email, password })}>
				Probe sign in
			</button>
			<button type="button" onClick={() => void signOut()}>
				Probe sign out
			</button>
		</div>
	);
}

describe("AuthProvider", () => {
	it("is loading until the first session lookup answers, then holds the server's user", async () => {
		const admin = createTestUser({ isAdmin: true });
		startFakeAuthServer({ signedInAs: admin });
		let releaseSession: () => void = () => {};
		const sessionReleased = new Promise<void>((resolve) => {
			releaseSession = resolve;
		});
		mswServer.use(
			http.get("*/api/auth/get-session", async () => {
				await sessionReleased;
				return undefined;
			}),
		);
		renderWithProviders(<AuthProbe />);

		expect(screen.getByText("Loading session")).toBeInTheDocument();
		releaseSession();

		expect(await screen.findByText(`Signed in as ${admin.email}`)).toBeInTheDocument();
		expect(screen.getByText("Administrator")).toBeInTheDocument();
		expect(screen.getByText(`Session session-of-${admin.id} for ${admin.id}`)).toBeInTheDocument();
		expect(screen.queryByText("Loading session")).not.toBeInTheDocument();
	});

	it("takes isAdmin from the server, whatever the e-mail looks like", async () => {
		startFakeAuthServer({ signedInAs: createTestUser({ email: "admin@example.com" }) });
		renderWithProviders(<AuthProbe />);

		expect(await screen.findByText("Signed in as admin@example.com")).toBeInTheDocument();
		expect(screen.getByText("Not an administrator")).toBeInTheDocument();
	});

	it("stops loading and is signed out when nobody is signed in", async () => {
		startFakeAuthServer();
		renderWithProviders(<AuthProbe />);

		expect(await screen.findByText("Signed out")).toBeInTheDocument();
		expect(screen.getByText("No session")).toBeInTheDocument();
	});

	it("stops loading and is signed out when the session lookup fails", async () => {
		mswServer.use(
			http.get("*/api/auth/get-session", () =>
				HttpResponse.json({ code: "UNKNOWN_ERROR", message: "Boom" }, { status: 500 }),
			),
		);
		renderWithProviders(<AuthProbe />);

		expect(await screen.findByText("Signed out")).toBeInTheDocument();
	});

	it("replaces the user on sign-in and clears it on sign-out", async () => {
		const account = createTestUser();
		startFakeAuthServer({ accounts: [account] });
		const { user } = renderWithProviders(
			<AuthProbe email={account.email} password={account.password} />,
		);
		expect(await screen.findByText("Signed out")).toBeInTheDocument();

		await user.click(screen.getByRole("button", { name: "Probe sign in" }));
		expect(await screen.findByText(`Signed in as ${account.email}`)).toBeInTheDocument();

		await user.click(screen.getByRole("button", { name: "Probe sign out" }));
		expect(await screen.findByText("Signed out")).toBeInTheDocument();
		expect(screen.getByText("No session")).toBeInTheDocument();
	});
});
