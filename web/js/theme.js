// A vendor's theme colour made readable: WCAG contrast, pure functions of #rrggbb text.

// WCAG relative luminance and contrast of #rrggbb colours (without the '#').
function luminance(hex) {
  const channel = (i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

export function contrast(a, b) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

// The vendor's colour, darkened (light mode) or lightened (dark mode) just enough to read as text on
// the page's background and panels (contrast 4.5:1, WCAG AA), and black or white text for use on it
// as a background.
export function themeColours(theme, dark) {
  const surfaces = dark ? ['1e2227', '15181c'] : ['ffffff', 'f7f7f4'];  // --panel and --bg (style.css)
  const readable = (c) => surfaces.every((surface) => contrast(c, surface) >= 4.5);
  const towards = dark ? 255 : 0;
  let colour = theme;
  for (let step = 1; step <= 20 && !readable(colour); step += 1) {
    colour = [0, 2, 4].map((i) => {
      const c = parseInt(theme.slice(i, i + 2), 16);
      return Math.round(c + (towards - c) * (step / 20)).toString(16).padStart(2, '0');
    }).join('');
  }
  return { accent: `#${colour}`, onAccent: contrast(colour, '000000') > contrast(colour, 'ffffff') ? '#000' : '#fff' };
}
