import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { AuthProvider } from "../../features/auth/auth-context";
import { ToastOutlet } from "../../lib/ui/toast";

export function createQueryClient(): QueryClient {
	return new QueryClient({
		defaultOptions: {
			queries: { retry: 1, staleTime: 30_000 },
		},
	});
}

type AppProvidersProps = {
	queryClient: QueryClient;
	children: ReactNode;
};

/** Everything the screens expect around them: server-state cache, auth and toasts. */
export function AppProviders({ queryClient, children }: AppProvidersProps) {
	return (
		<QueryClientProvider client={queryClient}>
			<AuthProvider>
				{children}
				<ToastOutlet />
			</AuthProvider>
		</QueryClientProvider>
	);
}
