import { Eye, EyeOff } from "lucide-react";
import { type InputHTMLAttributes, useState } from "react";
import { passwordHide, passwordShow } from "../../../shared/i18n/messages";
import { readActiveLanguage } from "../../../shared/i18n/runtime";
import { TextField } from "./text-field";

type PasswordFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "type"> & {
	label: string;
	hint?: string;
};

/** A password input with a button that shows or hides what was typed ("Show password"). */
export function PasswordField(props: PasswordFieldProps) {
	const [isVisible, setIsVisible] = useState(false);
	const ToggleIcon = isVisible ? EyeOff : Eye;
	// English writes the field's name in lower case inside the sentence ("Show password").
	const field = readActiveLanguage() === "en" ? props.label.toLowerCase() : props.label;
	return (
		<TextField
			{...props}
			type={isVisible ? "text" : "password"}
			trailing={
				<button
					type="button"
					onClick={() => setIsVisible((visible) => !visible)}
					className="inline-flex size-8 cursor-pointer items-center justify-center rounded-md text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-800"
				>
					<ToggleIcon aria-hidden="true" className="size-4" />
					{/* Named by text, not aria-label, so label lookups for the field find only the input. */}
					<span className="sr-only">
						{isVisible ? passwordHide({ field }) : passwordShow({ field })}
					</span>
				</button>
			}
		/>
	);
}
