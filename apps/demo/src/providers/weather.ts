import type { RondoServer } from '@rondo/core';
import { contents, textContent } from '@rondo/protocol';

const CITIES = ['amsterdam', 'berlin', 'kyoto', 'lisbon', 'nairobi', 'reykjavik', 'santiago'];
const SKIES = ['sunny', 'cloudy', 'rainy', 'windy', 'snowy', 'foggy'];

/** A deterministic made-up forecast, so the demo needs no network and tests can predict it. */
function forecast(city: string): { city: string; sky: string; celsius: number } {
  let hash = 0;
  for (const char of city) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return { city, sky: SKIES[hash % SKIES.length] ?? 'clear', celsius: (hash % 35) - 5 };
}

/**
 * Registers the resource template `demo://weather/{city}` (RFC 6570) and completion of its `city`
 * variable, so clients can both read any city and offer suggestions while the user types.
 */
export function addWeatherTemplate(server: RondoServer): void {
  server
    .resourceTemplate(
      'demo://weather/{city}',
      {
        name: 'weather',
        title: 'Weather by city',
        description: 'A made-up forecast for any city (a resource template).',
        mimeType: 'application/json',
      },
      (uri, variables) => {
        const city = String(variables.city ?? '').toLowerCase();
        return contents([textContent(uri, 'application/json', JSON.stringify(forecast(city)))]);
      },
    )
    .completion({ resource: 'demo://weather/{city}' }, 'city', (value) =>
      CITIES.filter((city) => city.startsWith(value.toLowerCase())),
    );
}
