/**
 * @actions/artifact (with Azure's blob client, archiver, protobuf: ~3.5 MB bundled) as a bundle of its own,
 * dist/action/artifact.js, loaded only when a transcript is uploaded: the action's own bundle stays small, and
 * `npm run build` rebuilds this one only when the package changes (scripts/build-action.mjs).
 */
export { DefaultArtifactClient } from '@actions/artifact';
