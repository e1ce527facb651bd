// The rule lives in src/shared, where the server names a device notified by Web Push the same way.
export { describeDevice } from "../../../shared/account/device-name";
