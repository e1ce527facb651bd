import { ImagePlus, Sparkles } from "lucide-react";
import { ASPECT_RATIOS } from "../../../shared/aspect-ratios";
import { MAX_PROMPT_LENGTH } from "../../../shared/constants";

type GeneratorPageProps = {
	isSignedIn: boolean;
};

/** The generator screen. A placeholder until the generator itself lands. */
export function GeneratorPage({ isSignedIn }: GeneratorPageProps) {
	return (
		<div className="space-y-8">
			<div className="max-w-2xl">
				<p className="inline-flex items-center gap-1.5 rounded-full bg-accent-50 px-3 py-1 text-xs font-semibold text-accent-700 ring-1 ring-accent-200 ring-inset">
					<Sparkles aria-hidden="true" className="size-3.5" />
					AI image generation
				</p>
				<h1 className="mt-4 text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
					Create with Atelier
				</h1>
				<p className="mt-3 text-base text-slate-600">
					Describe your vision in up to {MAX_PROMPT_LENGTH} characters, choose one of{" "}
					{ASPECT_RATIOS.length} aspect ratios and get a set of images. Every result is saved to
					your history.
				</p>
			</div>
			<section
				aria-labelledby="generator-preview-title"
				className="flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white/80 px-6 py-16 text-center shadow-card"
			>
				<span className="inline-flex size-12 items-center justify-center rounded-xl bg-accent-50 text-accent-700">
					<ImagePlus aria-hidden="true" className="size-6" />
				</span>
				<h2 id="generator-preview-title" className="mt-4 text-lg font-semibold text-slate-900">
					The studio is being set up
				</h2>
				<p className="mt-1.5 max-w-md text-sm text-slate-600">
					{isSignedIn
						? "The prompt editor will appear here shortly."
						: "Sign in to generate images once the prompt editor is ready."}
				</p>
			</section>
		</div>
	);
}
