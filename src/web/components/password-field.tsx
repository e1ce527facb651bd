import { Eye, EyeOff } from "lucide-react";
import { type InputHTMLAttributes, useState } from "react";
import { TextField } from "./text-field";

type PasswordFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "type"> & {
	label: string;
	hint?: string;
};

/** A password input with a button that shows or hides what was typed ("Show password"). */
export function PasswordField(props: PasswordFieldProps) {
	const [isVisible, setIsVisible] = useState(false);
	const ToggleIcon = isVisible ? EyeOff : Eye;
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
					<span className="sr-only">{`${isVisible ? "Hide" : "Show"} ${props.label.toLowerCase()}`}</span>
				</button>
			}
		/>
	);
}
