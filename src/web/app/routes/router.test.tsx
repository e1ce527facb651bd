import { screen, waitFor, within } from "@testing-library/react";
import { delay, HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { APP_ROUTES } from "../../../shared/core/app-routes";
import { startFakeAuditLogServer } from "../../testing/fakes/fake-audit-log-server";
import { createTestUser, startFakeAuthServer } from "../../testing/fakes/fake-auth-server";
import { mswServer } from "../../testing/msw-server";
import { renderApp } from "../../testing/render-app";

describe("routes", () => {
	it("shows the generator inside the shell at /", async () => {
		startFakeAuthServer();
		renderApp({ path: "/" });

		expect(
			await screen.findByRole("heading", { level: 1, name: "Create with Atelier" }),
		).toBeInTheDocument();
		expect(screen.getByRole("banner")).toBeInTheDocument();
		expect(screen.getByRole("main")).toBeInTheDocument();
	});

	it("sends a signed-out visitor from /generations to /login", async () => {
		startFakeAuthServer();
		const { readLocation } = renderApp({ path: "/generations" });

		expect(await screen.findByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();
		expect(readLocation()).toBe("/login");
	});

	it("shows a spinner, not a redirect, while the session lookup is pending", async () => {
		const user = createTestUser();
		startFakeAuthServer({ signedInAs: user });
		let releaseSession: () => void = () => {};
		const sessionReleased = new Promise<void>((resolve) => {
			releaseSession = resolve;
		});
		mswServer.use(
			http.get("*/api/auth/get-session", async () => {
				await sessionReleased;
				// Returning nothing hands the request on to the fake auth server.
				return undefined;
			}),
		);
		const { readLocation } = renderApp({ path: "/generations" });

		expect(await screen.findByText("Checking your session")).toBeInTheDocument();
		await delay(50);
		expect(readLocation()).toBe("/generations");

		releaseSession();
		expect(
			await screen.findByRole("heading", { level: 1, name: "Saved Generations" }),
		).toBeVisible();
		expect(readLocation()).toBe("/generations");
	});

	it("shows Saved Generations to a signed-in user, without the admin marks", async () => {
		startFakeAuthServer({ signedInAs: createTestUser() });
		renderApp({ path: "/generations" });

		expect(
			await screen.findByRole("heading", { level: 1, name: "Saved Generations" }),
		).toBeVisible();
		expect(screen.queryByText("Admin View")).not.toBeInTheDocument();
		expect(screen.queryByText("Admin")).not.toBeInTheDocument();
	});

	it("shows All Generations, an Admin badge and the Admin View note to the admin", async () => {
		startFakeAuthServer({ signedInAs: createTestUser({ isAdmin: true }) });
		renderApp({ path: "/generations" });

		expect(await screen.findByRole("heading", { level: 1, name: "All Generations" })).toBeVisible();
		const main = within(screen.getByRole("main"));
		expect(main.getByText("Admin")).toBeVisible();
		expect(main.getByText("Admin View")).toBeVisible();
	});

	it.each(["/login", "/signup"])("sends a signed-in user from %s to /", async (path) => {
		startFakeAuthServer({ signedInAs: createTestUser() });
		const { readLocation } = renderApp({ path });

		expect(
			await screen.findByRole("heading", { level: 1, name: "Create with Atelier" }),
		).toBeVisible();
		expect(readLocation()).toBe("/");
	});

	it.each([
		["/login", "Welcome back"],
		["/signup", "Create your account"],
	])("shows %s to a signed-out visitor", async (path, heading) => {
		startFakeAuthServer();
		const { readLocation } = renderApp({ path });

		expect(await screen.findByRole("heading", { level: 1, name: heading })).toBeVisible();
		expect(readLocation()).toBe(path);
	});

	it("answers an unknown path with Page Not Found and links home and to the history", async () => {
		startFakeAuthServer();
		const { user, readLocation } = renderApp({ path: "/no/such/page" });

		expect(await screen.findByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
		const main = within(screen.getByRole("main"));
		expect(main.getByRole("link", { name: "Go to Home" })).toHaveAttribute("href", "/");
		expect(main.getByRole("link", { name: "View Generations" })).toHaveAttribute(
			"href",
			"/generations",
		);

		await user.click(main.getByRole("link", { name: "Go to Home" }));
		await waitFor(() => expect(readLocation()).toBe("/"));
		expect(
			await screen.findByRole("heading", { level: 1, name: "Create with Atelier" }),
		).toBeVisible();
	});

	it.each(APP_ROUTES.map((route) => [route.path, route] as const))(
		"shows the screen of %s from the route table, not Page Not Found",
		async (path, route) => {
			// Someone the route lets in: nobody for the signed-out screens, the administrator otherwise.
			startFakeAuthServer(
				route.access === "signed-out" ? {} : { signedInAs: createTestUser({ isAdmin: true }) },
			);
			// What the account and audit-log screens ask for first: nothing linked, nothing logged.
			startFakeAuditLogServer();
			mswServer.use(
				http.get("*/api/auth/list-accounts", () => HttpResponse.json([])),
				http.get("*/api/auth/list-sessions", () => HttpResponse.json([])),
				http.get("*/api/boards", () => HttpResponse.json({ items: [] })),
			);
			const { readLocation } = renderApp({ path });

			const heading = await screen.findByRole("heading", { level: 1 });
			expect(heading).not.toHaveTextContent("Page Not Found");
			expect(readLocation()).toBe(path);
		},
	);
});
