import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Trash2, Users, UserX } from "lucide-react";
import { type ReactNode, useDeferredValue, useRef, useState } from "react";
import { Link } from "react-router";
import type {
	PeoplePage as PeoplePageData,
	PeopleSortKey,
	Person,
	PersonQuota,
	SortOrder,
} from "../../../shared/admin/people";
import { APP_PATHS } from "../../../shared/core/app-routes";
import {
	adminActionFailed,
	adminActions,
	adminDeleteAction,
	adminDeleteDescription,
	adminDeleteDone,
	adminDeleteTitle,
	adminDisableAction,
	adminDisableDescription,
	adminDisableDone,
	adminDisableTitle,
	adminEnableAction,
	adminEnableDescription,
	adminEnableDone,
	adminEnableTitle,
	adminNavPeople,
	adminNext,
	adminPeopleAuditLogLink,
	adminPeopleDescription,
	adminPeopleLoadFailed,
	adminPeopleLoading,
	adminPeopleNobody,
	adminPeopleNoMatch,
	adminPeoplePageOf,
	adminPeoplePages,
	adminPeopleSearch,
	adminPeopleSearchPlaceholder,
	adminPeopleSortedAscending,
	adminPeopleSortedDescending,
	adminPrevious,
	adminQuotasSaved,
} from "../../../shared/i18n/messages";
import { Button, getButtonClassName } from "../../components/basics/button";
import { ConfirmDialog } from "../../components/basics/confirm-dialog";
import { DataTable } from "../../components/basics/data-table";
import { QueryStatus } from "../../components/basics/query-status";
import {
	deletePerson,
	disablePerson,
	enablePerson,
	fetchPeoplePage,
	setPersonQuota,
} from "../../lib/account/admin-requests";
import { ApiError } from "../../lib/api/api-client";
import { ELEMENT_MARKER, splitAtElements } from "../../lib/ui/message-parts";
import { showToast } from "../../lib/ui/toast";
import { AdminPageFrame } from "./admin-page-frame";
import { COLUMNS, SortHeader } from "./people-columns";
import type { PendingPersonAction } from "./person-actions-menu";
import { PersonRow } from "./person-row";
import { QuotaDialog } from "./quota-dialog";

const PEOPLE_QUERY_KEY = ["admin", "people"] as const;

type Confirmation = {
	title: () => string;
	describe: (params: { email: string }) => string;
	action: () => string;
	done: (params: { email: string }) => string;
};

const CONFIRMATIONS: Record<PendingPersonAction["kind"], Confirmation> = {
	disable: {
		title: adminDisableTitle,
		describe: adminDisableDescription,
		action: adminDisableAction,
		done: adminDisableDone,
	},
	enable: {
		title: adminEnableTitle,
		describe: adminEnableDescription,
		action: adminEnableAction,
		done: adminEnableDone,
	},
	delete: {
		title: adminDeleteTitle,
		describe: adminDeleteDescription,
		action: adminDeleteAction,
		done: adminDeleteDone,
	},
};

function readFailure(error: unknown): string {
	return error instanceof ApiError ? error.message : adminActionFailed();
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
	const [pending, setPending] = useState<PendingPersonAction | null>(null);
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

	function confirmPending(current: PendingPersonAction) {
		const { kind, person } = current;
		setPending(null);
		const work = {
			disable: () => disablePerson(person.id),
			enable: () => enablePerson(person.id),
			delete: () => deletePerson(person.id),
		}[kind];
		void runAction(work, CONFIRMATIONS[kind].done({ email: person.email }));
	}

	function saveQuota(person: Person, quota: PersonQuota) {
		void runAction(
			async () => {
				await setPersonQuota(person.id, quota);
				setQuotaPerson(null);
			},
			adminQuotasSaved({ email: person.email }),
		);
	}

	let content: ReactNode;
	if (!data) {
		content = (
			<QueryStatus
				query={people}
				loadingLabel={adminPeopleLoading()}
				failureMessage={adminPeopleLoadFailed()}
			/>
		);
	} else if (data.items.length === 0) {
		content = (
			<p className="rounded-2xl border border-dashed border-slate-300 bg-white/80 px-6 py-12 text-center text-sm text-slate-600">
				{search ? adminPeopleNoMatch({ search }) : adminPeopleNobody()}
			</p>
		);
	} else {
		const sortName = COLUMNS.find((column) => column.key === sort)?.sortName() ?? "";
		content = (
			<div className="space-y-4">
				<div className="overflow-x-auto rounded-2xl bg-white px-4 shadow-card ring-1 ring-slate-200/80 sm:px-6">
					<DataTable
						className="min-w-[64rem]"
						caption={
							order === "asc"
								? adminPeopleSortedAscending({ column: sortName })
								: adminPeopleSortedDescending({ column: sortName })
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
									<span className="sr-only">{adminActions()}</span>
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
					aria-label={adminPeoplePages()}
					className="flex flex-wrap items-center justify-between gap-3"
				>
					<p className="text-sm text-slate-600" aria-live="polite">
						{adminPeoplePageOf({ page: data.page, pages: pageCount, count: data.total })}
					</p>
					<div className="flex gap-2">
						<Button
							variant="secondary"
							size="sm"
							disabled={page <= 1}
							onClick={() => setPage(page - 1)}
						>
							{adminPrevious()}
						</Button>
						<Button
							variant="secondary"
							size="sm"
							disabled={page >= pageCount}
							onClick={() => setPage(page + 1)}
						>
							{adminNext()}
						</Button>
					</div>
				</nav>
			</div>
		);
	}

	const confirmation = pending ? CONFIRMATIONS[pending.kind] : null;
	const [descriptionBefore, descriptionAfter] = splitAtElements(
		adminPeopleDescription({ link: ELEMENT_MARKER }),
	);
	return (
		<AdminPageFrame
			icon={<Users aria-hidden="true" className="size-7 text-accent-600" />}
			title={adminNavPeople()}
			description={
				<>
					{descriptionBefore}
					<Link to={APP_PATHS["audit-log"]} className="font-medium text-accent-700 underline">
						{adminPeopleAuditLogLink()}
					</Link>
					{descriptionAfter}
				</>
			}
		>
			<div className="flex flex-wrap items-end justify-between gap-3">
				<div className="w-full max-w-sm">
					<label
						htmlFor="people-search"
						className="mb-1.5 block text-sm font-medium text-slate-800"
					>
						{adminPeopleSearch()}
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
						placeholder={adminPeopleSearchPlaceholder()}
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
				title={confirmation?.title() ?? ""}
				description={
					pending && confirmation ? confirmation.describe({ email: pending.person.email }) : ""
				}
				action={
					<AlertDialog.Action
						className={getButtonClassName({
							variant: pending?.kind === "enable" ? "primary" : "danger",
						})}
						onClick={() => {
							if (pending) confirmPending(pending);
						}}
					>
						{confirmation?.action()}
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
