// Where the generator takes the service's contract from: the OpenAPI document the service serves
// and the table of its error codes. One import each, so that the client follows the contract
// wherever it lives. (Relative imports: the server depends on this package, so this package
// cannot depend on the server.)
export { deliveryErrorStatus as errorStatus } from "../../server/src/delivery/delivery-error.ts";
export { servedDocument as serviceDocument } from "../../server/test/openapi/document.ts";
