import { z } from "zod";
import { httpUrlOption, optionalHttpUrlVariable, optionalString } from "../shared/config-fields";
import { defineProvider, ProviderOptionError } from "../shared/provider-definition";
import { createHttpProvider } from "./http-provider";

/** A service that speaks Atelier's own HTTP image API: it needs its URL. */
export const HTTP_PROVIDER = defineProvider({
	label: "Image service",
	env: {
		IMAGE_API_URL: optionalHttpUrlVariable,
		IMAGE_API_KEY: optionalString,
	},
	requires: "IMAGE_API_URL",
	options: {
		url: httpUrlOption.optional(),
		/** Send the image and mask as short-lived signed URLs to fetch, not inline `data:` URLs. */
		imageUrls: z.boolean().optional(),
	},
	create(options, { env }, image) {
		const url = options.url ?? env.IMAGE_API_URL;
		if (!url)
			throw new ProviderOptionError("url", "is required (or IMAGE_API_URL in the environment)");
		// The contract cannot say what a service does with images: its entry does.
		if (image.mask === true && image.imageInput !== true) {
			throw new ProviderOptionError("mask", "needs imageInput: true, the service taking the image");
		}
		return createHttpProvider({
			apiUrl: url,
			...(env.IMAGE_API_KEY ? { apiKey: env.IMAGE_API_KEY } : {}),
			imageUrls: options.imageUrls === true,
			images: {
				image: image.imageInput === true,
				mask: image.mask === true,
				outpaint: image.outpaint !== false,
			},
		});
	},
});
