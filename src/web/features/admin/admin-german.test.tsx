import { render, screen } from "@testing-library/react";
import { Users } from "lucide-react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { APP_PATHS } from "../../../shared/app-routes";
import { registerCatalogue, setActiveLanguage } from "../../../shared/i18n/runtime";
import de from "../../../shared/i18n/translations/de";
import { AdminPageFrame } from "./admin-page-frame";

describe("the administrator's frame on a German page", () => {
	beforeEach(() => {
		registerCatalogue("de", de);
		setActiveLanguage("de");
	});
	afterEach(() => {
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
});
