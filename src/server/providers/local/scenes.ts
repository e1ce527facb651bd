import { adjust, type Color, mixLab, mixLch, oklch } from "./color";
import type { SceneKind } from "./prompt-theme";
import {
	drawBirds,
	drawHorizonGlow,
	drawLight,
	drawMist,
	drawRanges,
	drawSky,
	drawStars,
	drawVignette,
	pineTreePath,
	ridgePoints,
} from "./scene-parts";
import {
	addLinearGradient,
	addRadialGradient,
	areaPath,
	type Canvas,
	createId,
	createRollingProfile,
	format,
	linePath,
	mayDraw,
	type Point,
	paint,
	sampleStops,
	stroke,
} from "./svg";

/** Paints one scene onto the canvas, choosing its composition from the canvas's random source. */
export function drawScene(canvas: Canvas, kind: SceneKind): void {
	SCENES[kind](canvas);
	drawVignette(canvas, canvas.look.isNight ? 0.45 : 0.28);
}

const SCENES: Record<SceneKind, (canvas: Canvas) => void> = {
	mountains: drawMountains,
	lake: drawLake,
	forest: drawForest,
	dunes: drawDunes,
	ocean: drawOcean,
	city: drawCity,
	synthwave: drawSynthwave,
	space: drawSpace,
	ribbons: drawRibbons,
};

function drawBackdrop(canvas: Canvas, horizonY: number, lightX: number, lightY: number): void {
	const { look, unit } = canvas;
	drawSky(canvas, horizonY);
	if (look.isNight && mayDraw(canvas, "stars")) drawStars(canvas, horizonY, 1);
	if (look.lighting === "dawn" || look.lighting === "dusk") {
		drawHorizonGlow(canvas, lightX, horizonY, 1);
	}
	const radius = unit * (look.isNight ? 0.045 : look.lighting === "day" ? 0.05 : 0.075);
	if (mayDraw(canvas, look.isNight ? "moon" : "sun")) {
		drawLight(canvas, { x: lightX, y: lightY }, radius);
	}
}

function lightHeight(canvas: Canvas, horizonY: number): number {
	const { look, random } = canvas;
	if (look.lighting === "day") return horizonY * random.range(0.2, 0.45);
	if (look.isNight) return horizonY * random.range(0.15, 0.4);
	return horizonY * random.range(0.55, 0.85);
}

function drawMountains(canvas: Canvas): void {
	const { random, width, height, unit, look } = canvas;
	const horizonY = height * random.range(0.5, 0.66);
	const lightX = width * random.range(0.18, 0.82);
	drawBackdrop(canvas, horizonY, lightX, lightHeight(canvas, horizonY));
	const layers = random.integer(4, 6);
	drawRanges(canvas, {
		layers,
		farBase: horizonY,
		nearBase: height * 1.02,
		farHeight: random.range(0.22, 0.34),
		nearHeight: random.range(0.08, 0.14),
		bottom: height,
		jaggedness: random.range(0.55, 0.9),
		far: mixLab(look.haze, look.landNear, 0.22),
		near: look.landNear,
		mist: 0.45,
	});
	canvas.drawn.add("mountains");
	if (!look.isNight && random.chance(0.7) && mayDraw(canvas, "birds")) {
		drawBirds(
			canvas,
			{
				x: width * random.range(0.25, 0.75),
				y: horizonY * random.range(0.3, 0.6),
				spread: unit * 0.06,
			},
			look.landNear,
		);
	}
}

function drawLake(canvas: Canvas): void {
	const { random, width, height, unit, look } = canvas;
	const waterY = height * random.range(0.56, 0.68);
	const lightX = width * random.range(0.2, 0.8);
	const above = createId(canvas, "above");
	const bodyStart = canvas.body.length;
	drawBackdrop(canvas, waterY, lightX, lightHeight(canvas, waterY));
	// Without mountains the far shore is low rolling hills, drawn from the same random numbers.
	const hasMountains = mayDraw(canvas, "mountains");
	drawRanges(canvas, {
		layers: random.integer(3, 4),
		farBase: waterY - unit * 0.05,
		nearBase: waterY + 1,
		farHeight: random.range(0.22, 0.32) * (hasMountains ? 1 : 0.3),
		nearHeight: random.range(0.05, 0.1),
		bottom: waterY,
		jaggedness: random.range(0.45, 0.85) * (hasMountains ? 1 : 0),
		far: mixLab(look.haze, look.landNear, 0.2),
		near: mixLab(look.haze, look.landNear, 0.85),
		mist: 0.35,
	});
	// Wrap what is above the water in a group so the water can mirror it with one <use>.
	const aboveShapes = canvas.body.splice(bodyStart);
	canvas.body.push(`<g id="${above}">${aboveShapes.join("")}</g>`);
	canvas.drawn.add("water");
	const clip = createId(canvas, "clip");
	canvas.defs.push(
		`<clipPath id="${clip}"><rect y="${format(waterY)}" width="${width}" height="${format(height - waterY)}"/></clipPath>`,
	);
	canvas.body.push(
		`<g clip-path="url(#${clip})" opacity="0.85"><use href="#${above}" transform="matrix(1 0 0 -1 0 ${format(waterY * 2)})"/></g>`,
	);
	const water = addLinearGradient(
		canvas,
		[
			{ offset: 0, color: look.haze, opacity: 0.25 },
			{ offset: 1, color: adjust(look.landNear, { l: -0.04 }), opacity: 0.75 },
		],
		{ x: 0, y: waterY },
		{ x: 0, y: height },
	);
	canvas.body.push(
		`<rect y="${format(waterY)}" width="${width}" height="${format(height - waterY)}" fill="${water}"/>`,
	);
	drawRipples(canvas, waterY, lightX);
	// A dark near shore with a few trees frames the water on one side.
	const isLeft = random.chance(0.5);
	const reach = random.range(0.45, 0.7);
	const shoreProfile = createRollingProfile(random, 2);
	const fromEdge = (x: number): number => (isLeft ? x / width : 1 - x / width);
	const shoreY = (x: number): number => {
		const closeness = Math.max(0, 1 - fromEdge(x) / reach);
		return height - unit * (0.015 + 0.2 * closeness ** 2.2 + 0.025 * shoreProfile(x / width));
	};
	const shoreColor = adjust(look.landNear, { l: -0.06 });
	let trees = areaPath(ridgePoints(width, shoreY, 24), height + 1, true);
	const treeCount = random.integer(3, 7);
	const hasTrees = mayDraw(canvas, "trees");
	for (let index = 0; hasTrees && index < treeCount; index++) {
		const along = random.range(0, reach * 0.45);
		const x = isLeft ? along * width : width - along * width;
		const treeHeight = unit * random.range(0.2, 0.4) * (1 - along);
		trees += pineTreePath(x, shoreY(x) + unit * 0.01, treeHeight, treeHeight * 0.38, random.next);
	}
	canvas.body.push(`<path d="${trees}" ${paint(shoreColor)}/>`);
}

function drawRipples(canvas: Canvas, waterY: number, lightX: number): void {
	const { random, width, height, unit, look } = canvas;
	const lines: string[] = [];
	for (let index = 0; index < 70; index++) {
		const depth = random.next() ** 1.4;
		const y = waterY + 2 + (height - waterY) * depth;
		const isGlint = random.chance(0.6);
		const spread = unit * (0.03 + depth * 0.25);
		const x = isGlint ? lightX + random.range(-1, 1) * spread : random.range(0, width);
		const length = unit * random.range(0.01, 0.06) * (0.4 + depth * 1.6);
		const color = isGlint ? look.light : mixLch(look.haze, look.light, 0.5);
		const opacity =
			(isGlint ? random.range(0.3, 0.75) : random.range(0.08, 0.2)) * (1 - depth * 0.5);
		lines.push(
			`<path d="M${format(x - length / 2)} ${format(y)}h${format(length)}" ${stroke(color, Math.max(1, unit * 0.002 * (1 + depth * 2)), opacity)}/>`,
		);
	}
	canvas.body.push(...lines);
}

function drawForest(canvas: Canvas): void {
	const { random, width, height, unit, look } = canvas;
	const horizonY = height * random.range(0.48, 0.6);
	const lightX = width * random.range(0.2, 0.8);
	drawBackdrop(canvas, horizonY, lightX, lightHeight(canvas, horizonY));
	drawRanges(canvas, {
		layers: 1,
		farBase: horizonY + unit * 0.02,
		nearBase: horizonY + unit * 0.02,
		farHeight: 0.16,
		nearHeight: 0.16,
		bottom: height,
		jaggedness: 0.6,
		far: mixLab(look.haze, look.landNear, 0.15),
		near: mixLab(look.haze, look.landNear, 0.15),
		mist: 0,
	});
	drawMist(canvas, horizonY - unit * 0.1, horizonY + unit * 0.06, 0.5);
	// Trees are the scene itself: a negative prompt that names them leaves out the whole scene.
	canvas.drawn.add("trees");
	const layers = random.integer(3, 4);
	drawRanges(canvas, {
		layers,
		farBase: horizonY + unit * 0.06,
		nearBase: height * 1.01,
		farHeight: 0.06,
		nearHeight: 0.08,
		bottom: height,
		jaggedness: 0,
		far: mixLab(look.haze, look.landNear, 0.35),
		near: adjust(look.landNear, { l: -0.04 }),
		mist: 0.55,
		onRidge: (ridge) => {
			const isFront = ridge.index === layers - 1;
			const treeHeight = unit * (0.05 + ridge.depth * 0.22);
			let path = "";
			let x = -treeHeight * 0.3;
			while (x < width + treeHeight * 0.3) {
				const size = treeHeight * random.range(0.6, 1.25);
				// The front row is sparse and bigger, framing the picture instead of walling it off.
				const isPlanted = !isFront || x < width * 0.28 || x > width * 0.72 || random.chance(0.12);
				if (isPlanted) {
					path += pineTreePath(
						x,
						ridge.heightAt(x) + size * 0.12,
						size * (isFront ? 1.6 : 1),
						size * 0.42,
						random.next,
					);
				}
				x += size * (isFront ? random.range(0.35, 0.8) : random.range(0.18, 0.4));
			}
			const fill = addLinearGradient(
				canvas,
				[
					{ offset: 0, color: adjust(ridge.color, { l: 0.02 }) },
					{ offset: 1, color: ridge.color },
				],
				{ x: 0, y: ridge.heightAt(width / 2) - treeHeight * 1.5 },
				{ x: 0, y: ridge.heightAt(width / 2) + treeHeight },
			);
			canvas.body.push(`<path d="${path}" fill="${fill}"/>`);
		},
	});
}

function drawDunes(canvas: Canvas): void {
	const { random, width, height, unit, look } = canvas;
	const horizonY = height * random.range(0.5, 0.64);
	const lightX = width * random.range(0.15, 0.85);
	drawBackdrop(canvas, horizonY, lightX, lightHeight(canvas, horizonY));
	const sunSide = lightX < width / 2 ? -1 : 1;
	// Sand is lighter than other land: lift the near colour unless it is night.
	const sand = adjust(look.landNear, { l: look.isNight ? 0.02 : 0.16, c: 1.3 });
	const layers = random.integer(4, 5);
	for (let index = 0; index < layers; index++) {
		const depth = index / (layers - 1);
		const base = horizonY + (height * 1.02 - horizonY) * depth ** 0.8;
		const amplitude = unit * (0.04 + depth * 0.12) * random.range(0.7, 1.2);
		const frequency = random.range(1.2, 2.6) / (0.5 + depth);
		const phase = random.range(0, Math.PI * 2);
		const skew = random.range(0.2, 0.45) * sunSide;
		const roll = createRollingProfile(random, 2);
		// |sin| turned upside down gives sharp crests and round troughs, like wind-blown dunes.
		const lineY = (x: number): number => {
			const u = x / width;
			const warped =
				u * frequency * Math.PI + phase + skew * Math.sin(u * frequency * Math.PI + phase);
			const crest = 1 - Math.abs(Math.sin(warped)) ** 0.75;
			return base - amplitude * (0.35 * roll(u) + 0.65 * crest);
		};
		const color = mixLab(mixLab(look.haze, sand, 0.45), adjust(sand, { l: -0.1 }), depth);
		const points = ridgePoints(width, lineY, 90);
		const lit = adjust(color, { l: 0.06, c: 1.1 });
		const shade = mixLab(adjust(color, { l: -0.1 }), look.skyTop, 0.15);
		const fill = addLinearGradient(
			canvas,
			[
				{ offset: 0, color: sunSide < 0 ? lit : shade },
				{ offset: 1, color: sunSide < 0 ? shade : lit },
			],
			{ x: 0, y: 0 },
			{ x: width, y: 0 },
		);
		canvas.body.push(`<path d="${areaPath(points, height + 1, false)}" fill="${fill}"/>`);
		canvas.body.push(
			`<path d="${linePath(points, false)}" ${stroke(adjust(lit, { l: 0.08 }), Math.max(1, unit * 0.0025), 0.45)}/>`,
		);
		if (index < layers - 1) drawMist(canvas, base - amplitude, base + unit * 0.03, 0.3);
	}
}

function drawOcean(canvas: Canvas): void {
	const { random, width, height, unit, look } = canvas;
	const horizonY = height * random.range(0.45, 0.6);
	const lightX = width * random.range(0.25, 0.75);
	const lightY =
		look.lighting === "day" || look.isNight
			? lightHeight(canvas, horizonY)
			: horizonY - unit * random.range(0.02, 0.14);
	drawBackdrop(canvas, horizonY, lightX, lightY);
	// Water takes its hue half from the sky it mirrors, half from its own colour.
	const seaColor = oklch(
		look.landNear.l + 0.05,
		Math.max(0.05, look.landNear.c * 1.2),
		mixLch(look.landNear, look.skyTop, 0.5).h,
	);
	if (random.chance(0.6)) {
		// A far headland on the horizon gives the eye a sense of scale.
		const start = random.chance(0.5) ? random.range(-0.1, 0.2) : random.range(0.6, 0.85);
		const span = random.range(0.25, 0.45);
		const bump = createRollingProfile(random, 3);
		const lineY = (x: number): number => {
			const along = (x / width - start) / span;
			if (along <= 0 || along >= 1) return horizonY + 1;
			return horizonY - unit * 0.05 * Math.sin(along * Math.PI) ** 0.6 * (0.6 + 0.4 * bump(along));
		};
		canvas.body.push(
			`<path d="${areaPath(ridgePoints(width, lineY, 60), horizonY + 2, true)}" ${paint(mixLab(look.haze, seaColor, 0.35))}/>`,
		);
	}
	const sea = addLinearGradient(
		canvas,
		[
			{ offset: 0, color: adjust(mixLab(look.horizon, look.skyMiddle, 0.35), { l: -0.08 }) },
			{ offset: 0.3, color: mixLab(look.skyMiddle, seaColor, 0.6) },
			{ offset: 1, color: adjust(seaColor, { l: -0.08 }) },
		],
		{ x: 0, y: horizonY },
		{ x: 0, y: height },
	);
	canvas.body.push(
		`<rect y="${format(horizonY)}" width="${width}" height="${format(height - horizonY)}" fill="${sea}"/>`,
	);
	const reflection = addRadialGradient(
		canvas,
		[
			{ offset: 0, color: look.light, opacity: look.isNight ? 0.25 : 0.45 },
			{ offset: 1, color: look.light, opacity: 0 },
		],
		{ x: lightX, y: horizonY },
		unit * 0.55,
		{ scaleY: 0.45 },
	);
	canvas.body.push(
		`<rect y="${format(horizonY)}" width="${width}" height="${format(height - horizonY)}" fill="${reflection}"/>`,
	);
	canvas.drawn.add("water");
	drawRipples(canvas, horizonY, lightX);
	// Swells: long soft bands that grow and darken towards the viewer.
	const swells = random.integer(3, 4);
	for (let index = 0; index < swells; index++) {
		const depth = (index + 1) / swells;
		const base = horizonY + (height - horizonY) * (0.35 + 0.65 * depth ** 1.2);
		const amplitude = unit * (0.01 + 0.035 * depth);
		const roll = createRollingProfile(random, 3);
		const frequency = random.range(3, 6) / (0.6 + depth);
		const phase = random.range(0, 6);
		const lineY = (x: number): number => {
			const u = x / width;
			return (
				base - amplitude * (0.6 * Math.sin(u * frequency * Math.PI + phase) ** 2 + 0.4 * roll(u))
			);
		};
		const points = ridgePoints(width, lineY, 50);
		const color = mixLab(seaColor, look.skyMiddle, 0.35 * (1 - depth) + 0.1);
		const fill = addLinearGradient(
			canvas,
			[
				{ offset: 0, color: mixLab(color, look.horizon, 0.2) },
				{ offset: 1, color: adjust(color, { l: -0.06 - depth * 0.04 }) },
			],
			{ x: 0, y: base - amplitude },
			{ x: 0, y: base + unit * 0.12 },
		);
		canvas.body.push(
			`<path d="${areaPath(points, height + 1, true)}" fill="${fill}" fill-opacity="0.9"/>`,
		);
		canvas.body.push(
			`<path d="${linePath(points, true)}" ${stroke(mixLch(look.light, look.horizon, 0.3), Math.max(1, unit * 0.003 * (0.5 + depth)), 0.25 + 0.25 * depth)}/>`,
		);
	}
	if (random.chance(0.5) && mayDraw(canvas, "boat")) drawSailboat(canvas, horizonY, seaColor);
	if (!look.isNight && random.chance(0.6) && mayDraw(canvas, "birds")) {
		drawBirds(
			canvas,
			{
				x: width * random.range(0.2, 0.8),
				y: horizonY * random.range(0.35, 0.7),
				spread: unit * 0.05,
			},
			adjust(look.landNear, { l: -0.05 }),
		);
	}
}

function drawSailboat(canvas: Canvas, horizonY: number, seaColor: Color): void {
	const { random, width, unit, look } = canvas;
	const x = width * random.range(0.12, 0.88);
	const y = horizonY + unit * random.range(0.01, 0.03);
	const size = unit * random.range(0.025, 0.04);
	const color = mixLab(adjust(seaColor, { l: -0.12 }), look.haze, 0.25);
	canvas.body.push(
		`<path d="M${format(x)} ${format(y - size * 1.6)}L${format(x + size * 0.7)} ${format(y - size * 0.15)}L${format(x)} ${format(y - size * 0.15)}ZM${format(x - size * 0.08)} ${format(y - size * 1.3)}L${format(x - size * 0.6)} ${format(y - size * 0.15)}L${format(x - size * 0.08)} ${format(y - size * 0.15)}ZM${format(x - size * 0.75)} ${format(y - size * 0.05)}L${format(x + size * 0.8)} ${format(y - size * 0.05)}L${format(x + size * 0.55)} ${format(y + size * 0.18)}L${format(x - size * 0.55)} ${format(y + size * 0.18)}Z" ${paint(color)}/>`,
	);
}

function drawCity(canvas: Canvas): void {
	const { random, width, height, unit, look } = canvas;
	const hasWater = random.chance(0.55) && mayDraw(canvas, "water");
	const groundY = height * (hasWater ? random.range(0.62, 0.72) : random.range(0.78, 0.9));
	const lightX = width * random.range(0.15, 0.85);
	const above = createId(canvas, "above");
	const bodyStart = canvas.body.length;
	drawBackdrop(canvas, groundY, lightX, lightHeight(canvas, groundY) * (hasWater ? 1 : 0.8));
	const isLit = look.lighting !== "day";
	const hasWindows = isLit && mayDraw(canvas, "windows");
	const layers = 3;
	for (let index = 0; index < layers; index++) {
		const depth = index / (layers - 1);
		const color = mixLab(
			mixLab(look.haze, look.landNear, 0.3),
			adjust(look.landNear, { l: -0.05 }),
			depth,
		);
		const maxHeight = (groundY - height * 0.08) * (0.75 - depth * 0.3);
		let blocks = "";
		const windows: string[] = [];
		let x = -random.range(0, unit * 0.05);
		while (x < width) {
			const blockWidth = unit * random.range(0.035, 0.09) * (1 + depth * 0.6);
			const blockHeight =
				maxHeight * random.range(0.25, 1) ** 1.4 * (random.chance(0.12) ? 1.25 : 1);
			const top = groundY - blockHeight;
			blocks += `M${format(x)} ${format(groundY + 1)}V${format(top)}H${format(x + blockWidth)}V${format(groundY + 1)}Z`;
			const roof = random.next();
			if (roof < 0.2) {
				// A spire or antenna, so the skyline is not just boxes.
				const spireX = x + blockWidth / 2;
				const spireWidth = Math.max(1.5, blockWidth * 0.06);
				blocks += `M${format(spireX - spireWidth)} ${format(top)}V${format(top - blockHeight * 0.12)}H${format(spireX + spireWidth)}V${format(top)}Z`;
			} else if (roof < 0.45) {
				blocks += `M${format(x + blockWidth * 0.15)} ${format(top)}V${format(top - blockHeight * 0.06)}H${format(x + blockWidth * 0.85)}V${format(top)}Z`;
			}
			if (hasWindows && index > 0) {
				addWindows(canvas, windows, { x, top, width: blockWidth, bottom: groundY }, depth);
			}
			x += blockWidth + unit * random.range(-0.01, 0.012);
		}
		const fill = addLinearGradient(
			canvas,
			[
				{ offset: 0, color: adjust(color, { l: 0.03 }) },
				{ offset: 1, color: mixLab(color, look.haze, 0.3 * (1 - depth)) },
			],
			{ x: 0, y: groundY - maxHeight },
			{ x: 0, y: groundY },
		);
		canvas.body.push(`<path d="${blocks}" fill="${fill}"/>`);
		canvas.body.push(...windows);
		if (index < layers - 1) drawMist(canvas, groundY - maxHeight * 0.5, groundY, 0.35);
	}
	if (isLit) {
		const glow = addLinearGradient(
			canvas,
			[
				{ offset: 0, color: look.accent, opacity: 0 },
				{ offset: 1, color: look.accent, opacity: 0.28 },
			],
			{ x: 0, y: groundY - unit * 0.25 },
			{ x: 0, y: groundY },
		);
		canvas.body.push(
			`<rect y="${format(groundY - unit * 0.25)}" width="${width}" height="${format(unit * 0.25)}" fill="${glow}"/>`,
		);
	}
	if (!hasWater) {
		canvas.body.push(
			`<rect y="${format(groundY)}" width="${width}" height="${format(height - groundY)}" ${paint(adjust(look.landNear, { l: -0.07 }))}/>`,
		);
		return;
	}
	const aboveShapes = canvas.body.splice(bodyStart);
	canvas.body.push(`<g id="${above}">${aboveShapes.join("")}</g>`);
	const clip = createId(canvas, "clip");
	canvas.defs.push(
		`<clipPath id="${clip}"><rect y="${format(groundY)}" width="${width}" height="${format(height - groundY)}"/></clipPath>`,
	);
	canvas.body.push(
		`<g clip-path="url(#${clip})" opacity="0.7"><use href="#${above}" transform="matrix(1 0 0 -1 0 ${format(groundY * 2)})"/></g>`,
	);
	const water = addLinearGradient(
		canvas,
		[
			{ offset: 0, color: look.landNear, opacity: 0.3 },
			{ offset: 1, color: adjust(look.landNear, { l: -0.06 }), opacity: 0.85 },
		],
		{ x: 0, y: groundY },
		{ x: 0, y: height },
	);
	canvas.body.push(
		`<rect y="${format(groundY)}" width="${width}" height="${format(height - groundY)}" fill="${water}"/>`,
	);
	drawRipples(canvas, groundY, lightX);
}

function addWindows(
	canvas: Canvas,
	windows: string[],
	block: { x: number; top: number; width: number; bottom: number },
	depth: number,
): void {
	const { random, unit, look } = canvas;
	const cell = unit * (0.009 + depth * 0.006);
	const columns = Math.floor((block.width - cell) / cell / 1.6);
	const rows = Math.floor((block.bottom - block.top - cell) / cell / 1.8);
	if (columns < 1 || rows < 1) return;
	const lit = look.isNight ? 0.32 : 0.18;
	const warm = oklch(0.88, 0.11, 80);
	let warmPath = "";
	let accentPath = "";
	const offsetX = block.x + (block.width - columns * cell * 1.6) / 2 + cell * 0.3;
	for (let row = 0; row < rows; row++) {
		for (let column = 0; column < columns; column++) {
			if (!random.chance(lit)) continue;
			const x = offsetX + column * cell * 1.6;
			const y = block.top + cell + row * cell * 1.8;
			const rect = `M${format(x)} ${format(y)}h${format(cell)}v${format(cell * 1.1)}h${format(-cell)}Z`;
			if (random.chance(0.25)) accentPath += rect;
			else warmPath += rect;
		}
	}
	if (warmPath) windows.push(`<path d="${warmPath}" ${paint(warm, 0.55 + depth * 0.35)}/>`);
	if (accentPath)
		windows.push(`<path d="${accentPath}" ${paint(look.accent, 0.6 + depth * 0.3)}/>`);
}

function drawSynthwave(canvas: Canvas): void {
	const { random, width, height, unit, look } = canvas;
	const horizonY = height * random.range(0.55, 0.64);
	const centerX = width * random.range(0.4, 0.6);
	// The genre fixes the lighting: a deep night sky burning into a hot horizon, whatever the time.
	const top = oklch(0.15 + look.skyTop.l * 0.1, 0.07, look.skyTop.h);
	const middle = oklch(0.36, 0.16, look.skyMiddle.h);
	const hot = oklch(0.68, 0.22, look.horizon.h);
	const grid = oklch(0.8, 0.16, look.landNear.h);
	const sky = addLinearGradient(
		canvas,
		sampleStops(6, (offset) =>
			offset < 0.5 ? mixLch(top, middle, offset / 0.5) : mixLch(middle, hot, (offset - 0.5) / 0.5),
		),
		{ x: 0, y: 0 },
		{ x: 0, y: horizonY },
	);
	canvas.body.push(`<rect width="${width}" height="${height}" fill="${sky}"/>`);
	if (mayDraw(canvas, "stars")) drawStars(canvas, horizonY * 0.7, 0.9);
	const radius = unit * random.range(0.2, 0.28);
	const sunY = horizonY - radius * random.range(0.2, 0.55);
	if (mayDraw(canvas, "sun")) drawStripedSun(canvas, { x: centerX, y: sunY }, radius, hot);
	// Wireframe-style mountains: dark shapes with a neon rim.
	for (let index = 0; index < 2 && mayDraw(canvas, "mountains"); index++) {
		const profile = createRollingProfile(random, 3);
		const peaks = random.range(0.5, 0.8);
		const mountainHeight = unit * (index === 0 ? 0.2 : 0.12);
		const lineY = (x: number): number => {
			const u = x / width;
			// Keep the middle low so the sun stays visible between the ranges.
			const edge = Math.min(1, Math.abs(u - centerX / width) * 2.2) ** 1.3;
			return horizonY - mountainHeight * edge * (peaks * profile(u) + (1 - peaks) * 0.6);
		};
		const points = ridgePoints(width, lineY, 40);
		const mountainColor = oklch(0.16 + index * 0.04, 0.08, look.skyTop.h + 10);
		canvas.body.push(
			`<path d="${areaPath(points, horizonY + 1, false)}" ${paint(mountainColor)}/>`,
		);
		canvas.body.push(
			`<path d="${linePath(points, false)}" ${stroke(index === 0 ? hot : grid, Math.max(1, unit * 0.002), 0.7)}/>`,
		);
	}
	drawGrid(canvas, horizonY, centerX, hot, grid);
}

/** The synthwave sun: a hot disc whose lower half is cut into stripes, with a wide halo. */
function drawStripedSun(canvas: Canvas, center: Point, radius: number, hot: Color): void {
	const { look } = canvas;
	const centerX = center.x;
	const sunY = center.y;
	const halo = addRadialGradient(
		canvas,
		[
			{ offset: 0, color: hot, opacity: 0.6 },
			{ offset: 0.4, color: hot, opacity: 0.2 },
			{ offset: 1, color: hot, opacity: 0 },
		],
		{ x: centerX, y: sunY },
		radius * 2.4,
	);
	canvas.body.push(
		`<circle cx="${format(centerX)}" cy="${format(sunY)}" r="${format(radius * 2.4)}" fill="${halo}"/>`,
	);
	const sunFill = addLinearGradient(
		canvas,
		[
			{ offset: 0, color: oklch(0.94, 0.15, look.horizon.h + 70) },
			{ offset: 0.55, color: oklch(0.78, 0.19, look.horizon.h + 25) },
			{ offset: 1, color: oklch(0.62, 0.25, look.horizon.h) },
		],
		{ x: 0, y: sunY - radius },
		{ x: 0, y: sunY + radius },
	);
	// Stripes cut out of the lower half, thickening downwards: the genre's signature sun.
	const clip = createId(canvas, "clip");
	let bands = `<rect x="${format(centerX - radius)}" y="${format(sunY - radius)}" width="${format(radius * 2)}" height="${format(radius * 1.1)}"/>`;
	let y = sunY + radius * 0.1;
	let gap = radius * 0.03;
	while (y < sunY + radius) {
		const band = radius * 0.16;
		bands += `<rect x="${format(centerX - radius)}" y="${format(y + gap)}" width="${format(radius * 2)}" height="${format(band - gap)}"/>`;
		y += band;
		gap += radius * 0.022;
	}
	canvas.defs.push(`<clipPath id="${clip}">${bands}</clipPath>`);
	canvas.body.push(
		`<circle cx="${format(centerX)}" cy="${format(sunY)}" r="${format(radius)}" fill="${sunFill}" clip-path="url(#${clip})"/>`,
	);
}

/** The synthwave ground: a neon grid running to the horizon, glowing where it meets the sky. */
function drawGrid(
	canvas: Canvas,
	horizonY: number,
	centerX: number,
	hot: Color,
	grid: Color,
): void {
	const { width, height, unit, look } = canvas;
	const ground = addLinearGradient(
		canvas,
		[
			{ offset: 0, color: oklch(0.2, 0.09, look.skyTop.h) },
			{ offset: 1, color: oklch(0.08, 0.04, look.skyTop.h) },
		],
		{ x: 0, y: horizonY },
		{ x: 0, y: height },
	);
	canvas.body.push(
		`<rect y="${format(horizonY)}" width="${width}" height="${format(height - horizonY)}" fill="${ground}"/>`,
	);
	let lines = "";
	const rows = 14;
	for (let row = 1; row <= rows; row++) {
		const lineY = horizonY + (height - horizonY) * (row / rows) ** 2.2;
		lines += `M0 ${format(lineY)}H${width}`;
	}
	const spacing = unit * 0.09;
	const reach = Math.ceil((width * 3) / spacing / 2);
	for (let column = -reach; column <= reach; column++) {
		lines += `M${format(centerX)} ${format(horizonY)}L${format(centerX + column * spacing * 2.2)} ${format(height)}`;
	}
	const groundClip = createId(canvas, "clip");
	canvas.defs.push(
		`<clipPath id="${groundClip}"><rect y="${format(horizonY)}" width="${width}" height="${format(height - horizonY)}"/></clipPath>`,
	);
	canvas.body.push(
		`<g clip-path="url(#${groundClip})"><path d="${lines}" ${stroke(grid, unit * 0.009, 0.12)}/><path d="${lines}" ${stroke(grid, Math.max(1, unit * 0.0022), 0.85)}/></g>`,
	);
	// Fade the grid into the distance so it does not turn into moiré at the horizon.
	drawMist(
		canvas,
		horizonY + (height - horizonY) * 0.35,
		horizonY,
		1,
		oklch(0.2, 0.09, look.skyTop.h),
	);
	const horizonGlow = addLinearGradient(
		canvas,
		[
			{ offset: 0, color: hot, opacity: 0 },
			{ offset: 0.5, color: hot, opacity: 0.7 },
			{ offset: 1, color: hot, opacity: 0 },
		],
		{ x: 0, y: horizonY - unit * 0.02 },
		{ x: 0, y: horizonY + unit * 0.02 },
	);
	canvas.body.push(
		`<rect y="${format(horizonY - unit * 0.02)}" width="${width}" height="${format(unit * 0.04)}" fill="${horizonGlow}"/>`,
	);
}

function drawSpace(canvas: Canvas): void {
	const { random, width, height, unit, look } = canvas;
	const background = addLinearGradient(
		canvas,
		[
			{ offset: 0, color: oklch(0.09, 0.035, look.skyTop.h) },
			{ offset: 0.6, color: oklch(0.14, 0.06, look.skyMiddle.h) },
			{ offset: 1, color: oklch(0.2, 0.07, look.horizon.h) },
		],
		{ x: 0, y: 0 },
		{ x: width * random.range(0.3, 1), y: height },
	);
	canvas.body.push(`<rect width="${width}" height="${height}" fill="${background}"/>`);
	// Nebula: overlapping elliptical glows in the palette's hues.
	const hues = [look.skyTop.h, look.horizon.h, look.landNear.h, look.skyMiddle.h];
	const clouds = random.integer(6, 9);
	for (let index = 0; index < clouds; index++) {
		const color = oklch(
			random.range(0.5, 0.72),
			random.range(0.12, 0.2),
			random.pick(hues) + random.range(-15, 15),
		);
		const cloud = addRadialGradient(
			canvas,
			[
				{ offset: 0, color, opacity: random.range(0.2, 0.4) },
				{ offset: 0.5, color, opacity: random.range(0.06, 0.14) },
				{ offset: 1, color, opacity: 0 },
			],
			{ x: 0, y: 0 },
			1,
		);
		const x = random.range(0.05, 0.95) * width;
		const y = random.range(0.05, 0.95) * height;
		canvas.body.push(
			`<circle r="1" transform="translate(${format(x)} ${format(y)}) rotate(${format(random.range(-50, 50))}) scale(${format(unit * random.range(0.3, 0.7))} ${format(unit * random.range(0.12, 0.3))})" fill="${cloud}"/>`,
		);
	}
	if (mayDraw(canvas, "stars")) drawStars(canvas, height, 1.5);
	// Either a planet floating in view, or a giant one whose limb curves across the bottom.
	const hasPlanet = mayDraw(canvas, "planet");
	const isGiant = hasPlanet && random.chance(0.3);
	if (hasPlanet) drawPlanet(canvas, hues, isGiant);
	if (!isGiant && random.chance(0.35)) {
		// The edge of a nearer world along the bottom, rim-lit by the nebula.
		const ground = oklch(0.12, 0.03, look.skyTop.h);
		const edge = createRollingProfile(random, 3);
		const base = height * random.range(0.86, 0.94);
		const lineY = (x: number): number => base - unit * 0.08 * edge(x / width);
		const points = ridgePoints(width, lineY, 40);
		canvas.body.push(`<path d="${areaPath(points, height + 1, true)}" ${paint(ground)}/>`);
		canvas.body.push(
			`<path d="${linePath(points, true)}" ${stroke(oklch(0.7, 0.12, look.horizon.h), Math.max(1, unit * 0.002), 0.6)}/>`,
		);
	}
}

/** A planet lit from one side, perhaps ringed and with a moon; `isGiant` fills the bottom. */
function drawPlanet(canvas: Canvas, hues: readonly number[], isGiant: boolean): void {
	const { random, width, height, unit, look } = canvas;
	const planetRadius = unit * (isGiant ? random.range(0.8, 1.1) : random.range(0.12, 0.3));
	const planet = isGiant
		? { x: width * random.range(0.3, 0.7), y: height + planetRadius * random.range(0.55, 0.75) }
		: { x: width * random.range(0.22, 0.78), y: height * random.range(0.28, 0.68) };
	const lightAngle = isGiant ? random.range(-2.4, -0.7) : random.range(0, Math.PI * 2);
	const lit = { x: Math.cos(lightAngle), y: Math.sin(lightAngle) };
	// Sometimes a complementary planet, which stands out against a one-hue nebula.
	const planetHue = random.pick(hues) + random.pick([0, 0, 0, 160, 190]);
	const hasRings = !isGiant && random.chance(0.55) && mayDraw(canvas, "rings");
	const tilt = random.range(-28, 28);
	const ringWidths = [1.35, 1.5, 1.62, 1.8, 1.95].filter(() => random.chance(0.85));
	const ringColor = oklch(0.82, 0.06, look.horizon.h);
	const ringPath = (radius: number, isFront: boolean): string => {
		const rx = planetRadius * radius;
		const ry = rx * 0.22;
		return isFront
			? `M${format(planet.x + rx)} ${format(planet.y)}A${format(rx)} ${format(ry)} 0 0 1 ${format(planet.x - rx)} ${format(planet.y)}`
			: `M${format(planet.x - rx)} ${format(planet.y)}A${format(rx)} ${format(ry)} 0 0 1 ${format(planet.x + rx)} ${format(planet.y)}`;
	};
	const drawRings = (isFront: boolean): void => {
		const strokes = ringWidths
			.map(
				(radius, index) =>
					`<path d="${ringPath(radius, isFront)}" ${stroke(ringColor, planetRadius * 0.09, 0.18 + (index % 2) * 0.2)}/>`,
			)
			.join("");
		canvas.body.push(
			`<g transform="rotate(${format(tilt)} ${format(planet.x)} ${format(planet.y)})">${strokes}</g>`,
		);
	};
	const atmosphere = addRadialGradient(
		canvas,
		[
			{ offset: 0.7, color: oklch(0.75, 0.14, planetHue), opacity: 0.5 },
			{ offset: 0.78, color: oklch(0.75, 0.14, planetHue), opacity: 0.22 },
			{ offset: 1, color: oklch(0.75, 0.14, planetHue), opacity: 0 },
		],
		planet,
		planetRadius * 1.3,
	);
	canvas.body.push(
		`<circle cx="${format(planet.x)}" cy="${format(planet.y)}" r="${format(planetRadius * 1.3)}" fill="${atmosphere}"/>`,
	);
	if (hasRings) drawRings(false);
	const surface = addRadialGradient(
		canvas,
		[
			{ offset: 0, color: oklch(0.85, 0.1, planetHue + 20) },
			{ offset: 0.45, color: oklch(0.55, 0.14, planetHue) },
			{ offset: 0.8, color: oklch(0.2, 0.08, planetHue - 10) },
			{ offset: 1, color: oklch(0.1, 0.04, planetHue - 20) },
		],
		{ x: planet.x + lit.x * planetRadius * 0.55, y: planet.y + lit.y * planetRadius * 0.55 },
		planetRadius * 1.7,
	);
	canvas.body.push(
		`<circle cx="${format(planet.x)}" cy="${format(planet.y)}" r="${format(planetRadius)}" fill="${surface}"/>`,
	);
	// Cloud bands clipped to the disc, as on a gas giant.
	const planetClip = createId(canvas, "clip");
	canvas.defs.push(
		`<clipPath id="${planetClip}"><circle cx="${format(planet.x)}" cy="${format(planet.y)}" r="${format(planetRadius)}"/></clipPath>`,
	);
	let planetBands = "";
	const bandCount = random.integer(4, 8);
	for (let index = 0; index < bandCount; index++) {
		const bandY = planet.y + random.range(-1, 1) * planetRadius;
		const bandHeight = planetRadius * random.range(0.04, 0.18);
		planetBands += `<rect x="${format(planet.x - planetRadius)}" y="${format(bandY)}" width="${format(planetRadius * 2)}" height="${format(bandHeight)}" ${paint(oklch(random.range(0.3, 0.85), 0.08, planetHue + random.range(-30, 30)), random.range(0.08, 0.2))}/>`;
	}
	canvas.body.push(
		`<g clip-path="url(#${planetClip})" transform="rotate(${format(tilt)} ${format(planet.x)} ${format(planet.y)})">${planetBands}</g>`,
	);
	if (hasRings) drawRings(true);
	if (random.chance(0.6) && mayDraw(canvas, "moon")) {
		const moonRadius = planetRadius * random.range(0.1, 0.2);
		const distance = planetRadius * random.range(1.9, 2.6);
		const angle = random.range(0, Math.PI * 2);
		const moon = {
			x: planet.x + Math.cos(angle) * distance,
			y: planet.y + Math.sin(angle) * distance,
		};
		const moonFill = addRadialGradient(
			canvas,
			[
				{ offset: 0, color: oklch(0.85, 0.03, look.horizon.h) },
				{ offset: 0.7, color: oklch(0.4, 0.04, look.horizon.h) },
				{ offset: 1, color: oklch(0.12, 0.02, look.horizon.h) },
			],
			{ x: moon.x + lit.x * moonRadius * 0.5, y: moon.y + lit.y * moonRadius * 0.5 },
			moonRadius * 1.6,
		);
		canvas.body.push(
			`<circle cx="${format(moon.x)}" cy="${format(moon.y)}" r="${format(moonRadius)}" fill="${moonFill}"/>`,
		);
	}
}

function drawRibbons(canvas: Canvas): void {
	const { random, width, height, unit, look } = canvas;
	const span = Math.hypot(width, height);
	const angle = random.range(-24, 24);
	const from = mixLch(look.skyTop, look.skyMiddle, 0.3);
	const background = addLinearGradient(
		canvas,
		[
			{ offset: 0, color: from },
			{ offset: 1, color: look.horizon },
		],
		{ x: 0, y: 0 },
		{ x: width, y: height },
	);
	canvas.body.push(`<rect width="${width}" height="${height}" fill="${background}"/>`);
	if (random.chance(0.6) && mayDraw(canvas, "sun")) {
		const orb = addRadialGradient(
			canvas,
			[
				{ offset: 0, color: look.light, opacity: 0.9 },
				{ offset: 0.3, color: look.light, opacity: 0.35 },
				{ offset: 1, color: look.light, opacity: 0 },
			],
			{ x: width * random.range(0.2, 0.8), y: height * random.range(0.15, 0.45) },
			unit * random.range(0.25, 0.45),
		);
		canvas.body.push(`<rect width="${width}" height="${height}" fill="${orb}"/>`);
	}
	const bands = random.integer(6, 8);
	const left = width / 2 - span / 2;
	const shapes: string[] = [];
	// Ribbons are laid out on a square that covers the canvas at any rotation.
	for (let index = 0; index < bands; index++) {
		const share = index / (bands - 1);
		const base = height / 2 - span * 0.15 + span * 0.65 * share;
		const amplitude = unit * random.range(0.06, 0.16);
		const roll = createRollingProfile(random, 3);
		const lineY = (x: number): number => base - amplitude * (roll((x - left) / span) * 2 - 1);
		const points: { x: number; y: number }[] = [];
		for (let step = 0; step <= 28; step++) {
			const x = left + (span * step) / 28;
			points.push({ x, y: lineY(x) });
		}
		const bottom = height / 2 + span * 0.75;
		const color = mixLch(
			mixLch(look.skyMiddle, look.horizon, share),
			look.landNear,
			share ** 1.5 * 0.8,
		);
		const colorB = adjust(mixLch(color, look.accent, 0.3), { h: random.range(-25, 25) });
		const fill = addLinearGradient(
			canvas,
			[
				{ offset: 0, color: adjust(color, { l: 0.04 }) },
				{ offset: 1, color: adjust(colorB, { l: -0.05 }) },
			],
			{ x: left, y: base - amplitude },
			{ x: left + span, y: base + amplitude * 3 },
		);
		const path = areaPath(points, bottom, true);
		// A stepped shadow above each ribbon's edge, cheaper than a blur filter and nearly as soft.
		for (const [offset, opacity] of [
			[0.018, 0.06],
			[0.01, 0.09],
			[0.004, 0.12],
		] as const) {
			shapes.push(
				`<path d="${path}" transform="translate(0 ${format(-unit * offset)})" ${paint(oklch(0.1, 0.03, color.h), opacity)}/>`,
			);
		}
		shapes.push(`<path d="${path}" fill="${fill}"/>`);
		shapes.push(
			`<path d="${linePath(points, true)}" ${stroke(mixLch(look.light, color, 0.3), Math.max(1, unit * 0.0018), 0.35)}/>`,
		);
	}
	canvas.body.push(
		`<g transform="rotate(${format(angle)} ${format(width / 2)} ${format(height / 2)})">${shapes.join("")}</g>`,
	);
}
