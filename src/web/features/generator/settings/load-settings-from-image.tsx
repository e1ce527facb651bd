// "Load settings from image": the button and the hidden file input it opens; the chosen image's
// recipe is read by the form (image-settings.ts).
import { ImageUp } from "lucide-react";
import { useRef } from "react";
import {
	generatorLoadSettings,
	generatorLoadSettingsInput,
} from "../../../../shared/i18n/messages";
import { INPUT_IMAGE_ACCEPT } from "../../../../shared/image-input/image-types";

type LoadSettingsFromImageProps = {
	onImageChosen: (file: File) => void;
};

export function LoadSettingsFromImage({ onImageChosen }: LoadSettingsFromImageProps) {
	const fileInputRef = useRef<HTMLInputElement>(null);
	return (
		<>
			<button
				type="button"
				onClick={() => fileInputRef.current?.click()}
				className="inline-flex h-9 cursor-pointer items-center gap-1.5 rounded-lg px-1.5 text-sm font-medium text-accent-700 hover:bg-accent-50"
			>
				<ImageUp aria-hidden="true" className="size-4" />
				{generatorLoadSettings()}
			</button>
			<input
				ref={fileInputRef}
				type="file"
				accept={INPUT_IMAGE_ACCEPT}
				hidden
				aria-label={generatorLoadSettingsInput()}
				onChange={(event) => {
					const file = event.target.files?.[0];
					// Cleared, so choosing the same file again loads it again.
					event.target.value = "";
					if (file) onImageChosen(file);
				}}
			/>
		</>
	);
}
