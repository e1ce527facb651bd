import * as Dialog from "@radix-ui/react-dialog";
import { type FormEvent, type RefObject, useState } from "react";
import {
	MAX_ACTIVE_OVERRIDE,
	MAX_DAILY_OVERRIDE,
	type Person,
	type PersonQuota,
} from "../../../shared/people";
import { Button, getButtonClassName } from "../../components/button";
import { DialogFrame } from "../../components/dialog-frame";
import { TextField } from "../../components/text-field";

type QuotaDialogProps = {
	person: Person | null;
	defaults: { maxActive: number; daily: number };
	isBusy: boolean;
	onSave: (person: Person, quota: PersonQuota) => void;
	onClose: () => void;
	returnFocusRef: RefObject<HTMLElement | null>;
};

/** A field's text as a quota: empty is the default (null), else a whole number in range. */
function readLimit(text: string, min: number, max: number): number | null | "invalid" {
	const trimmed = text.trim();
	if (trimmed === "") return null;
	if (!/^\d+$/.test(trimmed)) return "invalid";
	const value = Number(trimmed);
	return value >= min && value <= max ? value : "invalid";
}

function describeDaily(daily: number): string {
	return daily === 0 ? "no daily limit" : `${daily} a day`;
}

/** The form itself, mounted for one person at a time so its fields start from their quotas. */
function QuotaForm({
	person,
	defaults,
	isBusy,
	onSave,
}: Omit<QuotaDialogProps, "person" | "onClose" | "returnFocusRef"> & { person: Person }) {
	const [maxActive, setMaxActive] = useState(person.quota.maxActive?.toString() ?? "");
	const [daily, setDaily] = useState(person.quota.daily?.toString() ?? "");
	const [error, setError] = useState<string | null>(null);

	function submit(event: FormEvent) {
		event.preventDefault();
		const active = readLimit(maxActive, 1, MAX_ACTIVE_OVERRIDE);
		const perDay = readLimit(daily, 0, MAX_DAILY_OVERRIDE);
		if (active === "invalid") {
			setError(`Active generations: a whole number from 1 to ${MAX_ACTIVE_OVERRIDE}, or empty.`);
			return;
		}
		if (perDay === "invalid") {
			setError(
				`Daily generations: a whole number from 0 (no limit) to ${MAX_DAILY_OVERRIDE}, or empty.`,
			);
			return;
		}
		setError(null);
		onSave(person, { maxActive: active, daily: perDay });
	}

	return (
		<form onSubmit={submit} noValidate className="mt-4 space-y-4">
			<TextField
				label="Active generations at once"
				inputMode="numeric"
				value={maxActive}
				onChange={(event) => setMaxActive(event.target.value)}
				placeholder={String(defaults.maxActive)}
				hint={`Empty: the default, ${defaults.maxActive}.`}
			/>
			<TextField
				label="Generations per day"
				inputMode="numeric"
				value={daily}
				onChange={(event) => setDaily(event.target.value)}
				placeholder={String(defaults.daily)}
				hint={`0 is no daily limit. Empty: the default, ${describeDaily(defaults.daily)}.`}
			/>
			{error ? (
				<p role="alert" className="text-sm font-medium text-red-800">
					{error}
				</p>
			) : null}
			<div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
				<Dialog.Close className={getButtonClassName({ variant: "secondary" })}>Cancel</Dialog.Close>
				<Button
					variant="secondary"
					disabled={isBusy}
					onClick={() => onSave(person, { maxActive: null, daily: null })}
				>
					Restore defaults
				</Button>
				<Button type="submit" isBusy={isBusy}>
					Save quotas
				</Button>
			</div>
		</form>
	);
}

/**
 * The quotas of one person, which replace the server's defaults for them: how many generations
 * may run at once and how many a day. Empty fields, or Restore defaults, give the defaults back.
 */
export function QuotaDialog({
	person,
	defaults,
	isBusy,
	onSave,
	onClose,
	returnFocusRef,
}: QuotaDialogProps) {
	return (
		<DialogFrame
			kind="dialog"
			isOpen={person !== null}
			onOpenChange={(open) => (open ? null : onClose())}
			returnFocusRef={returnFocusRef}
			title="Quotas"
			description={person ? `Limits for ${person.email}, in place of the defaults.` : null}
		>
			{person ? (
				<QuotaForm
					key={person.id}
					person={person}
					defaults={defaults}
					isBusy={isBusy}
					onSave={onSave}
				/>
			) : null}
		</DialogFrame>
	);
}
