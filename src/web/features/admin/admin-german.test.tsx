import { render, screen, waitFor, within } from "@testing-library/react";
import { Users } from "lucide-react";
import { MemoryRouter } from "react-router";
import { toast } from "sonner";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { APP_PATHS } from "../../../shared/core/app-routes";
import { registerCatalogue, setActiveLanguage } from "../../../shared/i18n/runtime";
import de from "../../../shared/i18n/translations/de";
import { openAs, readRows } from "../../testing/admin-screen";
import { createTestPerson, startFakePeopleServer } from "../../testing/fakes/fake-people-server";
import { createTestUsageReport, startFakeUsageServer } from "../../testing/fakes/fake-usage-server";
import { AdminPageFrame } from "./admin-page-frame";

describe("the administrator's screens on a German page", () => {
	beforeEach(() => {
		registerCatalogue("de", de);
		setActiveLanguage("de");
	});
	afterEach(() => {
		toast.dismiss();
		setActiveLanguage("en");
	});

	it("names the links between the screens and the way back in German", () => {
		render(
			<MemoryRouter initialEntries={[APP_PATHS.people]}>
				<AdminPageFrame icon={<Users />} title="Personen" description="" hasHistoryLink>
					<p />
				</AdminPageFrame>
			</MemoryRouter>,
		);
		const navigation = screen.getByRole("navigation", { name: "Administration" });
		expect(navigation).toHaveTextContent("PersonenProtokollNutzungGeteilte Links");
		expect(screen.getByRole("link", { name: "Personen" })).toHaveAttribute("aria-current", "page");
		expect(screen.getByRole("link", { name: "Alle Generierungen" })).toBeVisible();
	});

	it("lists the people with German figures, and asks before disabling in German", async () => {
		const server = startFakePeopleServer({
			people: [
				createTestPerson({
					email: "bob@example.com",
					lastActiveAt: null,
					generations: 1234,
					imageBytes: 52_400_000,
					spend: 1.6,
					quota: { maxActive: 1, daily: 0 },
				}),
				createTestPerson({ email: "carol@example.com" }),
			],
		});
		const { user } = openAs({ isAdmin: true, path: APP_PATHS.people });

		expect(
			await screen.findByRole("heading", { level: 1, name: "Personen" }, { timeout: 10_000 }),
		).toBeVisible();
		const table = await screen.findByRole("table", {
			name: "Personen, aufsteigend sortiert nach Person",
		});
		expect(within(table).getByRole("columnheader", { name: /^Zuletzt aktiv/ })).toBeVisible();
		const [bob] = readRows();
		expect(bob?.[0]).toBe("bob@example.comKontingent: 1 gleichzeitig, kein Tageslimit");
		expect(bob?.slice(2, 4)).toEqual(["Nie", "1.234"]);
		expect(bob?.[6]).toBe("52,4 MB");
		expect(bob?.[7]).toMatch(/^1,60\s\$$/);
		expect(bob?.[8]).toBe("Aktiv");
		expect(screen.getByText("Seite 1 von 1 · 2 Personen")).toBeVisible();
		expect(screen.getByText(/^Alle mit einem Konto:/)).toHaveTextContent(
			/Jede Aktion hier wird im Protokoll festgehalten\.$/,
		);

		await user.click(screen.getByRole("button", { name: "Aktionen für bob@example.com" }));
		await user.click(await screen.findByRole("menuitem", { name: "Deaktivieren…" }));
		const disable = await screen.findByRole("alertdialog", { name: "Diese Person deaktivieren?" });
		expect(disable).toHaveTextContent(
			"bob@example.com wird sofort überall abgemeldet und kann sich erst wieder anmelden, wenn du das Konto wieder aktivierst.",
		);
		await user.click(within(disable).getByRole("button", { name: "Deaktivieren" }));
		expect(await screen.findByText("bob@example.com ist deaktiviert.")).toBeVisible();
		await waitFor(() => expect(readRows()[0]?.[8]).toBe("Deaktiviert"));

		expect(server.readActions()).toEqual(["disable bob@example.com"]);
	});

	it("asks before enabling and deleting in German", async () => {
		const server = startFakePeopleServer({
			people: [
				createTestPerson({ email: "bob@example.com", status: "disabled" }),
				createTestPerson({ email: "carol@example.com" }),
			],
		});
		const { user } = openAs({ isAdmin: true, path: APP_PATHS.people });
		await screen.findByRole("table", undefined, { timeout: 10_000 });

		await user.click(screen.getByRole("button", { name: "Aktionen für bob@example.com" }));
		await user.click(await screen.findByRole("menuitem", { name: "Aktivieren…" }));
		expect(
			await screen.findByRole("alertdialog", { name: "Diese Person aktivieren?" }),
		).toHaveTextContent("bob@example.com kann sich wieder anmelden und generieren.");
		await user.click(screen.getByRole("button", { name: "Abbrechen" }));

		await user.click(screen.getByRole("button", { name: "Aktionen für carol@example.com" }));
		await user.click(await screen.findByRole("menuitem", { name: "Konto löschen…" }));
		const remove = await screen.findByRole("alertdialog", { name: "Dieses Konto löschen?" });
		expect(remove).toHaveTextContent(
			"Das lässt sich nicht rückgängig machen. Das Konto von carol@example.com, jede Generierung und jedes gespeicherte Bild darin werden gelöscht.",
		);
		await user.click(within(remove).getByRole("button", { name: "Konto löschen" }));
		expect(await screen.findByText("Das Konto von carol@example.com ist gelöscht.")).toBeVisible();
		expect(server.readActions()).toEqual(["delete carol@example.com"]);
	});

	it("writes the usage report in German: its sections, notes, tables and reasons", async () => {
		const empty = createTestUsageReport();
		startFakeUsageServer({
			report: createTestUsageReport({
				models: [{ id: "local", label: "Offline engine" }],
				generationsByDay: [
					{ day: "2025-01-28", modelId: "local", completed: 1, failed: 1, total: 2 },
				],
				failuresByDay: [{ day: "2025-01-28", reason: "TIMED_OUT", count: 1 }],
				storage: {
					totalImages: 1204,
					totalBytes: 52_300_000,
					imagesWithoutBytes: 1,
					byDay: empty.storage.byDay.map((entry) =>
						entry.day === "2025-01-28" ? { ...entry, images: 2, bytes: 1_500_000 } : entry,
					),
				},
				spend: { ...empty.spend, total: 0.32, unpricedImages: 21 },
			}),
		});
		const { user } = openAs({ isAdmin: true, path: APP_PATHS.usage });

		const generations = await screen.findByRole(
			"region",
			{ name: "Generierungen pro Tag nach Modell" },
			{ timeout: 10_000 },
		);
		expect(screen.getByRole("heading", { level: 1, name: "Nutzung" })).toBeVisible();
		expect(screen.getByText(/^Die letzten 30 Tage, .+ bis .+, nach Tagen in UTC\.$/)).toBeVisible();
		expect(
			within(generations).getByRole("link", {
				name: "CSV herunterladen: Generierungen pro Tag nach Modell",
			}),
		).toBeVisible();
		expect(
			within(generations).getByText(
				"Gesamt zählt auch Generierungen, die noch warten oder laufen.",
			),
		).toBeVisible();
		await user.click(within(generations).getByText("Als Tabelle zeigen"));
		const table = within(generations).getByRole("table");
		expect(
			within(table)
				.getAllByRole("columnheader")
				.map((cell) => cell.textContent),
		).toEqual(["Tag", "Modell", "Fertig", "Fehlgeschlagen", "Gesamt"]);

		const failures = screen.getByRole("region", { name: "Fehlschläge pro Tag nach Grund" });
		await user.click(within(failures).getByText("Was die Gründe bedeuten"));
		expect(within(failures).getByText("Zeit überschritten", { selector: "dt" })).toBeVisible();
		const storage = screen.getByRole("region", { name: "Gespeicherte Bilder und Bytes" });
		expect(within(storage).getByText("Jetzt gespeichert: 1.204 Bilder, 52,3 MB.")).toBeVisible();
		expect(
			within(storage).getByText(
				"Unvollständige Bytes: 1 Bild wurde gespeichert, bevor Größen erfasst wurden; seine Bytes sind nicht mitgezählt.",
			),
		).toBeVisible();
		expect(
			screen.getByRole("region", { name: "Mediane Dauer bis zum Ergebnis pro Modell" }),
		).toHaveTextContent("Keine fertigen Generierungen in den letzten 30 Tagen.");
		expect(
			screen.getByText(/^Nicht gezählt: 21 Bilder ohne Preis \(ihr Modell hat keinen/),
		).toBeVisible();
	});
});
