import { BrandButton } from "./brand-button";
import { ScreenOutlet } from "./screen-outlet";

/** The quieter layout of the sign-in, sign-up and password screens: the product title and a centred card. */
export function AuthLayout() {
	return (
		<div className="flex min-h-dvh flex-col">
			<header className="mx-auto flex h-16 w-full max-w-6xl items-center px-4 sm:px-6 lg:px-8">
				<BrandButton />
			</header>
			<main className="flex flex-1 justify-center px-4 pt-4 pb-16 sm:items-center sm:pt-0">
				<ScreenOutlet />
			</main>
		</div>
	);
}
