export type Palette = { primary: string; accent?: string };
export interface Coordinates {
  lat: number;
  lng: number;
}
