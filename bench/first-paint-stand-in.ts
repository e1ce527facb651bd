// The stand-in for a client-rendered app of the reference's size, for bench/first-paint.ts: the
// app's own entry, rendered by the browser alone (the app shell), with what the generator loads on
// demand imported here, so that the first screen, its settings, the generation flow and its
// panels, the reading of a dropped image's recipe and the auth client are one chunk of about
// 142 KiB gzip, as the reference app ships its code.
import "../src/web/main";
import "../src/web/features/generator/form/generation-controls";
import "../src/web/features/generator/flow/follow-generation";
import "../src/web/features/generator/results/generation-progress";
import "../src/web/features/generator/results/generation-results";
import "../src/web/lib/generations/read-image-recipe";
import "../src/web/lib/account/better-auth-client";
