// Batches in the generator (decision 038): Variations, shown once the prompt holds a {a|b}
// choice, with the number of generations before Generate; Compare models, with each price and the
// total; what a start sends; and the batch's generations shown together once started.
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { PublicModel } from "../../../shared/generations/models";
import { createTestModel } from "../../testing/fakes/test-generations";
import {
	cleanUpGeneratorScreen,
	getGenerateButton,
	getPromptBox,
	openGenerator,
	startGeneratorApi,
} from "../../testing/generator-screen";

afterEach(cleanUpGeneratorScreen);

const LOCAL = createTestModel();
const PAINTER: PublicModel = { ...LOCAL, id: "painter", label: "Painter", pricePerImage: 0.04 };
const SKETCH: PublicModel = { ...LOCAL, id: "sketch", label: "Sketch", pricePerImage: 0.01 };

describe("batches in the generator", () => {
	it("offers Variations only for a prompt with a choice, says how many it makes, and sends it", async () => {
		const server = startGeneratorApi({ models: [LOCAL] });
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "a red car");
		expect(screen.queryByRole("group", { name: "Variations" })).toBeNull();

		await user.clear(getPromptBox());
		// userEvent reads { as the start of a key name: {{ types one.
		await user.type(getPromptBox(), "a {{red|green|blue} car at {{dawn|dusk}");
		const variations = await screen.findByRole("group", { name: "Variations" });
		expect(within(variations).getByRole("radio", { name: "Off" })).toBeChecked();
		await user.click(within(variations).getByRole("radio", { name: "All combinations" }));
		expect(variations).toHaveAccessibleDescription("Makes 6 generations");

		await user.click(within(variations).getByRole("radio", { name: "Random picks" }));
		const howMany = within(variations).getByRole("combobox", { name: "How many" });
		expect(within(howMany).getAllByRole("option")).toHaveLength(6);
		expect(variations).toHaveAccessibleDescription("Makes 4 generations");
		await user.selectOptions(howMany, "3");
		expect(variations).toHaveAccessibleDescription("Makes 3 generations");

		await user.click(getGenerateButton());
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(1));
		expect(server.readCreateRequests()[0]).toMatchObject({
			prompt: "a {red|green|blue} car at {dawn|dusk}",
			variations: { random: 3 },
		});
		const batch = await screen.findByRole("region", { name: "Batch of 3" });
		expect(within(batch).getAllByRole("listitem")).toHaveLength(3);
		expect(
			within(batch).getByRole("link", { name: "Show the batch in the history" }),
		).toHaveAttribute("href", "/generations?batch=5f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b");
	});

	it("compares two to four models with each price and the total, and sends them instead of model", async () => {
		const server = startGeneratorApi({ models: [LOCAL, PAINTER, SKETCH] });
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "a lighthouse");
		await user.click(screen.getByRole("radio", { name: "1 image" }));
		await user.click(screen.getByRole("checkbox", { name: "Compare models" }));
		const compared = screen.getByRole("group", { name: /Models to compare/ });
		expect(compared).toHaveAccessibleDescription("Choose 2 to 4 models to compare");
		await user.click(
			within(compared).getByRole("checkbox", { name: /Painter · \$0\.04 a generation/ }),
		);
		await user.click(
			within(compared).getByRole("checkbox", { name: /Sketch · \$0\.01 a generation/ }),
		);
		expect(compared).toHaveAccessibleDescription("Makes 3 generations");
		await user.click(within(compared).getByRole("checkbox", { name: /Sketch/ }));
		expect(compared).toHaveAccessibleDescription("Makes 2 generations");

		await user.click(getGenerateButton());
		await waitFor(() => expect(server.readCreateRequests()).toHaveLength(1));
		const sent = server.readCreateRequests()[0];
		expect(sent).toMatchObject({ prompt: "a lighthouse", models: [LOCAL.id, "painter"] });
		expect(sent).not.toHaveProperty("model");
		const batch = await screen.findByRole("region", { name: "Batch of 2" });
		expect(within(batch).getByText("Painter")).toBeInTheDocument();
	});

	it("shows the total price when every compared model has one", async () => {
		startGeneratorApi({ models: [PAINTER, SKETCH] });
		const { user } = await openGenerator();
		await user.type(getPromptBox(), "a lighthouse");
		await user.click(screen.getByRole("radio", { name: "2 images" }));
		await user.click(screen.getByRole("checkbox", { name: "Compare models" }));
		const compared = screen.getByRole("group", { name: /Models to compare/ });
		await user.click(
			within(compared).getByRole("checkbox", { name: /Sketch · \$0\.02 a generation/ }),
		);
		expect(compared).toHaveAccessibleDescription("Makes 2 generations · $0.10 in all");
	});
});
