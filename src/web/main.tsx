import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { ErrorBoundary } from "./app/error-boundary";
import { AppProviders, createQueryClient } from "./app/providers";
import { AppRoutes } from "./app/router";
import { applyBackgroundPattern } from "./lib/background-pattern";
import "./styles.css";

const rootElement = document.getElementById("root");
if (!rootElement) throw new Error("index.html has no #root element");

applyBackgroundPattern(document.body);

createRoot(rootElement).render(
	<StrictMode>
		<ErrorBoundary isFullPage>
			<AppProviders queryClient={createQueryClient()}>
				<BrowserRouter>
					<AppRoutes />
				</BrowserRouter>
			</AppProviders>
		</ErrorBoundary>
	</StrictMode>,
);
