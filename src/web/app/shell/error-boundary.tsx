import { RotateCw, TriangleAlert } from "lucide-react";
import { Component, type ErrorInfo, type ReactNode } from "react";
import {
	appErrorTitle,
	appRefreshPage,
	appTryAgain,
	errorUnknownError,
} from "../../../shared/i18n/messages";
import { Button } from "../../components/basics/button";

type ErrorFallbackProps = {
	onTryAgain: () => void;
};

/** What a screen shows in place of content that failed to render. */
function ErrorFallback({ onTryAgain }: ErrorFallbackProps) {
	return (
		<div className="mx-auto flex max-w-md flex-col items-center px-4 py-16 text-center">
			<span className="inline-flex size-12 items-center justify-center rounded-xl bg-red-50 text-red-700 ring-1 ring-red-200 ring-inset">
				<TriangleAlert aria-hidden="true" className="size-6" />
			</span>
			<h1 className="mt-4 text-2xl font-semibold tracking-tight text-slate-900">
				{appErrorTitle()}
			</h1>
			<p className="mt-2 text-sm text-slate-600">{errorUnknownError()}</p>
			<div className="mt-6 flex flex-wrap justify-center gap-3">
				<Button variant="secondary" onClick={() => window.location.reload()}>
					<RotateCw aria-hidden="true" className="size-4" />
					{appRefreshPage()}
				</Button>
				<Button onClick={onTryAgain}>{appTryAgain()}</Button>
			</div>
		</div>
	);
}

type ErrorBoundaryProps = {
	children: ReactNode;
	/** Wrap the fallback in its own <main>, for a boundary that sits outside every layout. */
	isFullPage?: boolean;
};

type ErrorBoundaryState = { hasError: boolean };

/** Catches a render error below it and offers Refresh Page and Try Again (a fresh render). */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
	override state: ErrorBoundaryState = { hasError: false };

	static getDerivedStateFromError(): ErrorBoundaryState {
		return { hasError: true };
	}

	override componentDidCatch(error: unknown, info: ErrorInfo): void {
		console.error("A screen failed to render", error, info.componentStack);
	}

	resetError = (): void => {
		this.setState({ hasError: false });
	};

	override render(): ReactNode {
		if (!this.state.hasError) return this.props.children;
		const fallback = <ErrorFallback onTryAgain={this.resetError} />;
		return this.props.isFullPage ? <main>{fallback}</main> : fallback;
	}
}
