import { useId, useState } from "react";
import {
	generatorNotify,
	generatorNotifyDenied,
	generatorNotifyUnsupported,
	generatorPlaySound,
} from "../../../../shared/i18n/messages";
import {
	chooseNotify,
	readNotifyChoice,
	readSoundChoice,
	rememberSoundChoice,
} from "../../../lib/generations/finish-notices";
import { NOTIFY_BAR_CLASS_NAME, SETTINGS_BAR_ITEM_CLASS_NAME } from "../settings/settings-frame";
import { PushOffer } from "./push-offer";

type SwitchProps = {
	label: string;
	isOn: boolean;
	isBusy?: boolean;
	describedBy?: string;
	onChange: (isOn: boolean) => void;
};

/** A real switch: a button with role="switch" whose state is aria-checked. */
function Switch({ label, isOn, isBusy = false, describedBy, onChange }: SwitchProps) {
	return (
		<button
			type="button"
			role="switch"
			aria-checked={isOn}
			aria-describedby={describedBy}
			disabled={isBusy}
			onClick={() => onChange(!isOn)}
			className="inline-flex items-center gap-2 rounded-md text-sm text-slate-700 disabled:opacity-60"
		>
			{/* The knob sits at the track's end when on; the page's focus ring marks the button. */}
			<span
				aria-hidden="true"
				className={`inline-flex h-5 w-9 shrink-0 rounded-full p-0.5 transition-colors ${isOn ? "justify-end bg-accent-600" : "bg-slate-200"}`}
			>
				<span className="size-4 rounded-full bg-white shadow" />
			</span>
			{label}
		</button>
	);
}

/**
 * "Notify me when done" and its optional sound, among the generator's settings so they can be
 * chosen before a generation starts as well as while one runs. The browser is asked for
 * permission only when the switch is turned on; refused, the switch says so and stays off.
 */
export function NotifySwitches() {
	const [isNotifyOn, setIsNotifyOn] = useState(readNotifyChoice);
	const [isSoundOn, setIsSoundOn] = useState(readSoundChoice);
	const [isAsking, setIsAsking] = useState(false);
	const [problem, setProblem] = useState<string | null>(null);
	const problemId = useId();

	const changeNotify = async (isOn: boolean) => {
		setProblem(null);
		setIsAsking(true);
		const choice = await chooseNotify(isOn);
		setIsAsking(false);
		setIsNotifyOn(choice.isOn);
		if (!choice.isOn && choice.reason !== "turned-off") {
			setProblem(
				choice.reason === "unsupported" ? generatorNotifyUnsupported() : generatorNotifyDenied(),
			);
		}
	};
	const changeSound = (isOn: boolean) => {
		rememberSoundChoice(isOn);
		setIsSoundOn(isOn);
	};

	return (
		<div className="flex flex-col gap-2">
			<div className={NOTIFY_BAR_CLASS_NAME}>
				<div className={SETTINGS_BAR_ITEM_CLASS_NAME}>
					<Switch
						label={generatorNotify()}
						isOn={isNotifyOn}
						isBusy={isAsking}
						describedBy={problem ? problemId : undefined}
						onChange={(isOn) => void changeNotify(isOn)}
					/>
				</div>
				<div className={SETTINGS_BAR_ITEM_CLASS_NAME}>
					<Switch label={generatorPlaySound()} isOn={isSoundOn} onChange={changeSound} />
				</div>
			</div>
			{isNotifyOn ? <PushOffer /> : null}
			{problem ? (
				<p id={problemId} role="status" className="text-sm text-amber-800">
					{problem}
				</p>
			) : null}
		</div>
	);
}
