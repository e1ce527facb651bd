import * as AlertDialog from "@radix-ui/react-alert-dialog";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import {
	ArrowDown,
	ArrowUp,
	ArrowUpDown,
	EllipsisVertical,
	Gauge,
	Trash2,
	UserCheck,
	Users,
	UserX,
} from "lucide-react";
import { type ReactNode, useDeferredValue, useRef, useState } from "react";
import { Link } from "react-router";
import { APP_PATHS } from "../../../shared/app-routes";
import type {
	PeoplePage as PeoplePageData,
	PeopleSortKey,
	Person,
	PersonQuota,
	SortOrder,
} from "../../../shared/people";
import { Button, getButtonClassName } from "../../components/button";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { DataTable, NUMERIC_CELL_CLASS_NAME } from "../../components/data-table";
import { QueryStatus } from "../../components/query-status";
import {
	deletePerson,
	disablePerson,
	enablePerson,
	fetchPeoplePage,
	setPersonQuota,
} from "../../lib/admin-requests";
import { ApiError } from "../../lib/api-client";
import { formatDay } from "../../lib/date-format";
import { formatBytes, formatCount, formatMoney } from "../../lib/number-format";
import { showToast } from "../../lib/toast";
import { AdminPageFrame } from "./admin-page-frame";
import { QuotaDialog } from "./quota-dialog";

const LOAD_FAILURE_MESSAGE = "Failed to load the people. Please try again.";
const PEOPLE_QUERY_KEY = ["admin", "people"] as const;

type Column = {
	key: PeopleSortKey;
	label: string;
	/** Numbers read best right-aligned, and most wanted largest first. */
	isNumeric: boolean;
};

const COLUMNS: readonly Column[] = [
	{ key: "email", label: "Person", isNumeric: false },
	{ key: "signedUp", label: "Signed up", isNumeric: false },
	{ key: "lastActive", label: "Last active", isNumeric: false },
	{ key: "generations", label: "Generations", isNumeric: true },
	{ key: "generationsThisMonth", label: "This month", isNumeric: true },
	{ key: "images", label: "Images", isNumeric: true },
	{ key: "bytes", label: "Stored", isNumeric: true },
	{ key: "spend", label: "Spend", isNumeric: true },
	{ key: "status", label: "Status", isNumeric: false },
];

type Pending = { kind: "disable" | "enable" | "delete"; person: Person };

function SortHeader({
	column,
	sort,
	order,
	onSort,
}: {
	column: Column;
	sort: PeopleSortKey;
	order: SortOrder;
	onSort: (key: PeopleSortKey) => void;
}) {
	const isSorted = column.key === sort;
	let icon = <ArrowUpDown aria-hidden="true" className="size-3.5 text-slate-400" />;
	if (isSorted && order === "asc") icon = <ArrowUp aria-hidden="true" className="size-3.5" />;
	if (isSorted && order === "desc") icon = <ArrowDown aria-hidden="true" className="size-3.5" />;
	return (
		<th
			scope="col"
			aria-sort={isSorted ? (order === "asc" ? "ascending" : "descending") : "none"}
			className={`py-2 pr-3 whitespace-nowrap ${column.isNumeric ? "text-right" : ""}`}
		>
			<button
				type="button"
				onClick={() => onSort(column.key)}
				className="inline-flex cursor-pointer items-center gap-1 rounded font-semibold tracking-wide uppercase hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-accent-600 focus-visible:outline-none"
			>
				{column.label}
				{icon}
			</button>
		</th>
	);
}

const MENU_ITEM_CLASS_NAME =
	"flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900";

function PersonActionsMenu({
	person,
	onAction,
	onQuota,
}: {
	person: Person;
	onAction: (pending: Pending, trigger: HTMLElement | null) => void;
	onQuota: (person: Person, trigger: HTMLElement | null) => void;
}) {
	const triggerRef = useRef<HTMLButtonElement>(null);
	return (
		<DropdownMenu.Root modal={false}>
			<DropdownMenu.Trigger
				ref={triggerRef}
				aria-label={`Actions for ${person.email}`}
				className="inline-flex size-9 cursor-pointer items-center justify-center rounded-lg text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 data-[state=open]:bg-slate-100"
			>
				<EllipsisVertical aria-hidden="true" className="size-4" />
			</DropdownMenu.Trigger>
			<DropdownMenu.Portal>
				<DropdownMenu.Content
					align="end"
					sideOffset={4}
					className="z-menu w-56 rounded-xl bg-white p-1.5 shadow-lg ring-1 ring-slate-200 focus:outline-none"
				>
					<DropdownMenu.Item
						className={MENU_ITEM_CLASS_NAME}
						onSelect={() => onQuota(person, triggerRef.current)}
					>
						<Gauge aria-hidden="true" className="size-4" />
						Quotas…
					</DropdownMenu.Item>
					{/* The administrator's own account can be neither disabled nor deleted. */}
					{person.isAdmin ? null : (
						<>
							{person.status === "active" ? (
								<DropdownMenu.Item
									className={MENU_ITEM_CLASS_NAME}
									onSelect={() => onAction({ kind: "disable", person }, triggerRef.current)}
								>
									<UserX aria-hidden="true" className="size-4" />
									Disable…
								</DropdownMenu.Item>
							) : (
								<DropdownMenu.Item
									className={MENU_ITEM_CLASS_NAME}
									onSelect={() => onAction({ kind: "enable", person }, triggerRef.current)}
								>
									<UserCheck aria-hidden="true" className="size-4" />
									Enable…
								</DropdownMenu.Item>
							)}
							<DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
							<DropdownMenu.Item
								className={`${MENU_ITEM_CLASS_NAME} data-[highlighted]:bg-red-50 data-[highlighted]:text-red-700`}
								onSelect={() => onAction({ kind: "delete", person }, triggerRef.current)}
							>
								<Trash2 aria-hidden="true" className="size-4" />
								Delete account…
							</DropdownMenu.Item>
						</>
					)}
				</DropdownMenu.Content>
			</DropdownMenu.Portal>
		</DropdownMenu.Root>
	);
}

function describeQuota(person: Person): string | null {
	const parts: string[] = [];
	if (person.quota.maxActive !== null) parts.push(`${person.quota.maxActive} at once`);
	if (person.quota.daily !== null) {
		parts.push(person.quota.daily === 0 ? "no daily limit" : `${person.quota.daily} a day`);
	}
	return parts.length > 0 ? `Quota: ${parts.join(", ")}` : null;
}

function PersonRow({
	person,
	onAction,
	onQuota,
}: {
	person: Person;
	onAction: (pending: Pending, trigger: HTMLElement | null) => void;
	onQuota: (person: Person, trigger: HTMLElement | null) => void;
}) {
	const quota = describeQuota(person);
	return (
		<tr className="align-top">
			<td className="py-3 pr-3 text-sm">
				<span className="font-medium break-all text-slate-900">{person.email}</span>
				{person.isAdmin ? <span className="ml-2 text-xs text-accent-700">(you)</span> : null}
				{quota ? <span className="mt-0.5 block text-xs text-slate-600">{quota}</span> : null}
			</td>
			<td className="py-3 pr-3 text-sm whitespace-nowrap text-slate-700">
				<time dateTime={person.signedUpAt}>{formatDay(person.signedUpAt)}</time>
			</td>
			<td className="py-3 pr-3 text-sm whitespace-nowrap text-slate-700">
				{person.lastActiveAt ? (
					<time dateTime={person.lastActiveAt}>{formatDay(person.lastActiveAt)}</time>
				) : (
					"Never"
				)}
			</td>
			<td className={`py-3 pr-3 text-sm text-slate-900 ${NUMERIC_CELL_CLASS_NAME}`}>
				{formatCount(person.generations)}
			</td>
			<td className={`py-3 pr-3 text-sm text-slate-900 ${NUMERIC_CELL_CLASS_NAME}`}>
				{formatCount(person.generationsThisMonth)}
			</td>
			<td className={`py-3 pr-3 text-sm text-slate-900 ${NUMERIC_CELL_CLASS_NAME}`}>
				{formatCount(person.images)}
			</td>
			<td
				className={`py-3 pr-3 text-sm whitespace-nowrap text-slate-900 ${NUMERIC_CELL_CLASS_NAME}`}
			>
				{formatBytes(person.imageBytes)}
			</td>
			<td className={`py-3 pr-3 text-sm text-slate-900 ${NUMERIC_CELL_CLASS_NAME}`}>
				{formatMoney(person.spend)}
			</td>
			<td className="py-3 pr-3 text-sm">
				{person.status === "active" ? (
					<span className="text-emerald-800">Active</span>
				) : (
					<span className="font-medium text-red-800">Disabled</span>
				)}
			</td>
			<td className="py-1.5 text-right">
				<PersonActionsMenu person={person} onAction={onAction} onQuota={onQuota} />
			</td>
		</tr>
	);
}

const CONFIRMATIONS = {
	disable: {
		title: "Disable this person?",
		describe: (email: string) =>
			`${email} is signed out everywhere at once and cannot sign in until you enable them again. Their queued and running generations are cancelled.`,
		action: "Disable",
		done: (email: string) => `${email} is disabled.`,
	},
	enable: {
		title: "Enable this person?",
		describe: (email: string) => `${email} may sign in and generate again.`,
		action: "Enable",
		done: (email: string) => `${email} is enabled.`,
	},
	delete: {
		title: "Delete this account?",
		describe: (email: string) =>
			`This action cannot be undone. ${email}'s account, every generation and every stored image in it are deleted.`,
		action: "Delete account",
		done: (email: string) => `${email}'s account is deleted.`,
	},
} as const;

function readFailure(error: unknown): string {
	return error instanceof ApiError ? error.message : "The action failed. Please try again.";
}

/**
 * The administrator's People page: everyone with their usage (generations, images stored,
 * estimated spend), searched, sorted and paged by the server, and per person Disable or Enable,
 * quotas and deleting the account, each after a confirmation and each recorded in the audit log.
 */
export function PeoplePage() {
	const queryClient = useQueryClient();
	const [searchText, setSearchText] = useState("");
	const search = useDeferredValue(searchText.trim());
	const [sort, setSort] = useState<PeopleSortKey>("email");
	const [order, setOrder] = useState<SortOrder>("asc");
	const [page, setPage] = useState(1);
	const [pending, setPending] = useState<Pending | null>(null);
	const [quotaPerson, setQuotaPerson] = useState<Person | null>(null);
	const [isBusy, setIsBusy] = useState(false);
	const returnFocusRef = useRef<HTMLElement | null>(null);

	const people = useQuery<PeoplePageData>({
		queryKey: [...PEOPLE_QUERY_KEY, { search, sort, order, page }],
		queryFn: ({ signal }) => fetchPeoplePage({ search, sort, order, page, signal }),
		placeholderData: keepPreviousData,
		staleTime: 0,
	});
	const data = people.data;
	const pageCount = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

	function changeSort(key: PeopleSortKey) {
		if (key === sort) {
			setOrder(order === "asc" ? "desc" : "asc");
		} else {
			const column = COLUMNS.find((entry) => entry.key === key);
			setSort(key);
			setOrder(column?.isNumeric || key === "lastActive" || key === "signedUp" ? "desc" : "asc");
		}
		setPage(1);
	}

	async function runAction(work: () => Promise<unknown>, doneMessage: string) {
		setIsBusy(true);
		try {
			await work();
			void showToast("success", doneMessage);
		} catch (error) {
			void showToast("error", readFailure(error));
		} finally {
			setIsBusy(false);
			await queryClient.invalidateQueries({ queryKey: PEOPLE_QUERY_KEY });
		}
	}

	function confirmPending(current: Pending) {
		const { kind, person } = current;
		setPending(null);
		const work = {
			disable: () => disablePerson(person.id),
			enable: () => enablePerson(person.id),
			delete: () => deletePerson(person.id),
		}[kind];
		void runAction(work, CONFIRMATIONS[kind].done(person.email));
	}

	function saveQuota(person: Person, quota: PersonQuota) {
		void runAction(async () => {
			await setPersonQuota(person.id, quota);
			setQuotaPerson(null);
		}, `Quotas for ${person.email} saved.`);
	}

	let content: ReactNode;
	if (!data) {
		content = (
			<QueryStatus
				query={people}
				loadingLabel="Loading the people"
				failureMessage={LOAD_FAILURE_MESSAGE}
			/>
		);
	} else if (data.items.length === 0) {
		content = (
			<p className="rounded-2xl border border-dashed border-slate-300 bg-white/80 px-6 py-12 text-center text-sm text-slate-600">
				{search ? `Nobody's e-mail contains “${search}”.` : "Nobody has signed up yet."}
			</p>
		);
	} else {
		content = (
			<div className="space-y-4">
				<div className="overflow-x-auto rounded-2xl bg-white px-4 shadow-card ring-1 ring-slate-200/80 sm:px-6">
					<DataTable
						className="min-w-[64rem]"
						caption={
							<>
								People, sorted by{" "}
								{COLUMNS.find((column) => column.key === sort)?.label.toLowerCase()}{" "}
								{order === "asc" ? "ascending" : "descending"}
							</>
						}
						head={
							<>
								{COLUMNS.map((column) => (
									<SortHeader
										key={column.key}
										column={column}
										sort={sort}
										order={order}
										onSort={changeSort}
									/>
								))}
								<th scope="col" className="py-2 text-right">
									<span className="sr-only">Actions</span>
								</th>
							</>
						}
					>
						{data.items.map((person) => (
							<PersonRow
								key={person.id}
								person={person}
								onAction={(next, trigger) => {
									returnFocusRef.current = trigger;
									setPending(next);
								}}
								onQuota={(next, trigger) => {
									returnFocusRef.current = trigger;
									setQuotaPerson(next);
								}}
							/>
						))}
					</DataTable>
				</div>
				<nav
					aria-label="Pages of people"
					className="flex flex-wrap items-center justify-between gap-3"
				>
					<p className="text-sm text-slate-600" aria-live="polite">
						Page {formatCount(data.page)} of {formatCount(pageCount)} · {formatCount(data.total)}{" "}
						{data.total === 1 ? "person" : "people"}
					</p>
					<div className="flex gap-2">
						<Button
							variant="secondary"
							size="sm"
							disabled={page <= 1}
							onClick={() => setPage(page - 1)}
						>
							Previous
						</Button>
						<Button
							variant="secondary"
							size="sm"
							disabled={page >= pageCount}
							onClick={() => setPage(page + 1)}
						>
							Next
						</Button>
					</div>
				</nav>
			</div>
		);
	}

	const confirmation = pending ? CONFIRMATIONS[pending.kind] : null;
	return (
		<AdminPageFrame
			icon={<Users aria-hidden="true" className="size-7 text-accent-600" />}
			title="People"
			description={
				<>
					Everyone with an account: their use, what it costs on priced models, and their access.
					Every action here is recorded in the{" "}
					<Link to={APP_PATHS["audit-log"]} className="font-medium text-accent-700 underline">
						audit log
					</Link>
					.
				</>
			}
		>
			<div className="flex flex-wrap items-end justify-between gap-3">
				<div className="w-full max-w-sm">
					<label
						htmlFor="people-search"
						className="mb-1.5 block text-sm font-medium text-slate-800"
					>
						Search by e-mail
					</label>
					<input
						id="people-search"
						type="search"
						value={searchText}
						onChange={(event) => {
							setSearchText(event.target.value);
							setPage(1);
						}}
						className="block h-11 w-full rounded-lg border-0 bg-white px-3 text-base text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-500 focus:ring-2 focus:ring-accent-600 focus:outline-none sm:text-sm"
						placeholder="name@example.com"
					/>
				</div>
			</div>
			{content}
			<ConfirmDialog
				isOpen={pending !== null}
				onClose={() => setPending(null)}
				returnFocusRef={returnFocusRef}
				icon={
					pending?.kind === "delete" ? (
						<Trash2 aria-hidden="true" className="size-5" />
					) : (
						<UserX aria-hidden="true" className="size-5" />
					)
				}
				tone={pending?.kind === "enable" ? "warning" : "danger"}
				title={confirmation?.title ?? ""}
				description={pending && confirmation ? confirmation.describe(pending.person.email) : ""}
				action={
					<AlertDialog.Action
						className={getButtonClassName({
							variant: pending?.kind === "enable" ? "primary" : "danger",
						})}
						onClick={() => {
							if (pending) confirmPending(pending);
						}}
					>
						{confirmation?.action}
					</AlertDialog.Action>
				}
			/>
			<QuotaDialog
				person={quotaPerson}
				defaults={data?.defaultQuota ?? { maxActive: 0, daily: 0 }}
				isBusy={isBusy}
				onSave={saveQuota}
				onClose={() => setQuotaPerson(null)}
				returnFocusRef={returnFocusRef}
			/>
		</AdminPageFrame>
	);
}
