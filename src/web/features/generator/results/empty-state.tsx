import { ImageIcon, Lightbulb } from "lucide-react";
import {
	generatorEmptyDescription,
	generatorEmptyTitle,
	generatorTip,
	generatorTipLabel,
} from "../../../../shared/i18n/messages";
import { EXAMPLE_PROMPTS } from "./example-prompts";

type EmptyStateProps = {
	onPickExample: (prompt: string) => void;
};

/** What the result panel shows before anything was generated. */
export function EmptyState({ onPickExample }: EmptyStateProps) {
	return (
		<div className="flex flex-1 flex-col items-center justify-center px-2 py-8 text-center sm:py-12">
			<span className="inline-flex size-14 items-center justify-center rounded-2xl bg-gradient-to-br from-accent-50 to-white text-accent-600 ring-1 ring-accent-200 ring-inset">
				<ImageIcon aria-hidden="true" className="size-7" />
			</span>
			<h2 className="mt-4 text-lg font-semibold text-slate-900">{generatorEmptyTitle()}</h2>
			<p className="mt-1.5 max-w-sm text-sm text-slate-600">{generatorEmptyDescription()}</p>
			<ul className="mt-5 flex max-w-lg flex-wrap justify-center gap-2">
				{EXAMPLE_PROMPTS.map((example) => (
					<li key={example}>
						<button
							type="button"
							onClick={() => onPickExample(example)}
							className="cursor-pointer rounded-full bg-white px-3.5 py-1.5 text-left text-sm text-slate-700 shadow-sm ring-1 ring-slate-200 transition-colors ring-inset hover:bg-accent-50 hover:text-accent-800 hover:ring-accent-200"
						>
							{example}
						</button>
					</li>
				))}
			</ul>
			<p className="mt-8 flex max-w-md items-start gap-2 rounded-xl bg-amber-50 px-4 py-3 text-left text-sm text-amber-900 ring-1 ring-amber-200 ring-inset">
				<Lightbulb aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-600" />
				<span>
					<strong className="font-semibold">{generatorTipLabel()}</strong> {generatorTip()}
				</span>
			</p>
		</div>
	);
}
